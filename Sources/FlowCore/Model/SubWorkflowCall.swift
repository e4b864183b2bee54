/// `workflow:` on a step: the step runs another workflow file, with the inputs it binds, and its outputs are
/// the called workflow's outputs.
///
/// ```yaml
/// - id: login
///   workflow: ./shared-login.yaml
///   inputs:
///     username: $inputs.username
///     password: $inputs.password
/// ```
///
/// The called workflow runs with its own servers, interceptors, policies and `catch` rules; what the step
/// declares (`if`, `after`, `on-error`, `compensate`) applies to the call as a whole.
package struct SubWorkflowCall: Sendable {
    /// The called file's path as written, relative to the directory of the calling file unless absolute.
    package var path: Located<String>
    /// The values bound to the called workflow's inputs, in file order.
    package var inputs: [Binding]
    /// For a step of an Arazzo document that runs another workflow of it (`workflowId`, or a `dependsOn` entry):
    /// that workflow's id; ``path`` is then the document itself.
    package var arazzoWorkflowID: String?

    /// What the call runs, for messages: `'login.yaml'`, or `workflow 'place-order'` in an Arazzo document.
    package var target: String {
        arazzoWorkflowID.map { "workflow '\($0)'" } ?? "'\(path.value)'"
    }

    /// Creates a call.
    /// - Parameters:
    ///   - path: The called file's path as written.
    ///   - inputs: The values bound to its inputs.
    package init(path: Located<String>, inputs: [Binding]) {
        self.path = path
        self.inputs = inputs
    }
}
