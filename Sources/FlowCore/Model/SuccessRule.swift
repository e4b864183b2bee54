/// What follows a step's success: an Arazzo success action (`onSuccess`, or a workflow's `successActions`),
/// lowered onto the step.
///
/// The first rule whose ``criteria`` all hold for the step's response decides; with none, the run goes on as
/// the plan orders it.
package struct SuccessRule: Sendable {
    /// What a ``SuccessRule`` does.
    package enum Action: Sendable {
        /// Continue at this step: it and every step after it run again (a step before the target that has not
        /// run yet is passed over).
        case goto(Located<String>)
        /// End the run successfully: the workflow's outputs are produced from what ran.
        case end
        /// Run this on-demand step (one that calls a workflow), then end the run as ``end`` does: an Arazzo `goto`
        /// to a workflow.
        case run(Located<String>)
    }

    /// The action's `name`, for reports and spans.
    package var name: String
    /// Arazzo criteria that must all hold for the step's response; none means always.
    package var criteria: [Located<ArazzoCriterion>]
    /// What it does.
    package var action: Action
    /// Where the action is declared.
    package var location: SourceLocation
    /// For `goto`: how many times the target may run in one run, its first run included.
    package var maxVisits: Int

    /// Creates a rule.
    /// - Parameters:
    ///   - name: The action's name.
    ///   - criteria: The criteria that must hold.
    ///   - action: What it does.
    ///   - location: Where it is declared.
    ///   - maxVisits: For `goto`, how many times the target may run.
    package init(
        name: String, criteria: [Located<ArazzoCriterion>], action: Action, location: SourceLocation, maxVisits: Int
    ) {
        self.name = name
        self.criteria = criteria
        self.action = action
        self.location = location
        self.maxVisits = maxVisits
    }
}
