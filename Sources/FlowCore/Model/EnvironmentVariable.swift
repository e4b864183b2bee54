/// A process environment variable a workflow declares under `env:`, the only ones `$env.NAME` can read.
///
/// ```yaml
/// env:
///   BANK_URL: {}                      # required: a run stops before its first request when it is unset
///   BANK_API_KEY: { secret: true }    # redacted in every log, report, span and error
///   REGION: { default: eu-west-1 }    # used when the variable is unset
/// ```
///
/// A workflow sees nothing else of the environment, so it cannot read (and send) a variable such as
/// `AWS_SECRET_ACCESS_KEY` that nobody declared.
package struct EnvironmentVariable: Sendable {
    /// The variable's name, where it is declared.
    package var name: Located<String>
    /// Whether its value is a secret, redacted everywhere like a `format: password` input.
    package var secret: Bool
    /// The value a run uses when the variable is unset; `nil` makes the variable required.
    package var defaultValue: String?
    /// What the variable is for.
    package var description: String?

    /// Creates a declaration.
    /// - Parameters:
    ///   - name: The variable's name, where it is declared.
    ///   - secret: Whether its value is a secret.
    ///   - defaultValue: The value used when it is unset; `nil` makes it required.
    ///   - description: What the variable is for.
    package init(name: Located<String>, secret: Bool = false, defaultValue: String? = nil, description: String? = nil) {
        self.name = name
        self.secret = secret
        self.defaultValue = defaultValue
        self.description = description
    }
}
