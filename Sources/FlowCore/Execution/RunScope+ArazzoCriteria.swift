/// Arazzo criteria read in a run's scope: an Arazzo step's `successCriteria` and its actions' `criteria`, lowered
/// onto flowrun's steps, rules and retry rules.
extension RunScope {
    /// The position of the first of `criteria` that does not hold here (with ``response`` set to the response
    /// they judge), or `nil` when all hold.
    func firstUnmet(_ criteria: [Located<ArazzoCriterion>]) -> Int? {
        criteria.firstIndex { !holds($0.value) }
    }

    /// Whether every one of `criteria` holds here; none always holds.
    func holds(_ criteria: [Located<ArazzoCriterion>]) -> Bool {
        firstUnmet(criteria) == nil
    }

    /// Whether `criterion` holds here, each runtime expression read as flowrun reads it (parsed once, when the
    /// criterion was made): one that reads nothing is absent, which Arazzo's criteria compare as `null`. Lowering
    /// rewrote the criteria's expressions into flowrun's and refused those flowrun cannot read at run time.
    private func holds(_ criterion: ArazzoCriterion) -> Bool {
        criterion.holds { text in criterion.readable[text].flatMap { try? value(of: $0) } }
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
