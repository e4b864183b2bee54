/// Arazzo criteria read in a run's scope: an Arazzo step's `successCriteria` and its actions' `criteria`, lowered
/// onto flowrun's steps, rules and retry rules.
extension RunScope {
    /// The position of the first of `criteria` that does not hold here (with ``response`` set to the response
    /// they judge), or `nil` when all hold.
    func firstUnmet(_ criteria: [Located<ArazzoCriterion>]) -> Int? {
        criteria.firstIndex { !$0.value.holds(resolving: arazzoValue) }
    }

    /// Whether every one of `criteria` holds here; none always holds.
    func holds(_ criteria: [Located<ArazzoCriterion>]) -> Bool {
        firstUnmet(criteria) == nil
    }

    /// The value of an Arazzo runtime expression, as flowrun reads it; `nil` (absent, which Arazzo's criteria
    /// compare as `null`) when it reads nothing. Lowering rewrote each criterion's expressions into flowrun's and
    /// refused those flowrun cannot read at run time, so each one here parses.
    func arazzoValue(_ text: String) -> JSONValue? {
        guard let expression = try? RuntimeExpression(parsing: text) else { return nil }
        return try? value(of: expression)
    }
}

extension ErrorMatcher {
    /// Whether the matcher has an `if` condition or Arazzo criteria: something it reads from the failed response.
    var isGuarded: Bool { condition != nil || !criteria.isEmpty }

    /// Whether its `if` condition and Arazzo criteria hold in `scope` (its response set to the one they judge).
    func guardHolds(in scope: RunScope) -> Bool {
        (condition?.holds(in: scope) ?? true) && scope.holds(criteria)
    }
}
