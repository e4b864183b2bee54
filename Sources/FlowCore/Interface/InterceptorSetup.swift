/// What an ``InterceptorRegistry`` factory is given to make an interceptor for one call of a step: the
/// declaration's evaluated `with:` arguments, the run's inputs, vars and environment, and its secrets.
///
/// The engine calls the factory each time it builds a step's chain of interceptors: for each attempt, and
/// again for the replay after a refresh. The built-in kinds (`bearer`, `sign`, `refresh`, …) are made
/// through the same registry from a setup like this one.
///
/// A setup may be kept by the interceptor it made: ``variable(_:)``, ``input(_:)`` and ``environment(_:)``
/// read the run when they are called, so an interceptor that reads `token` inside
/// ``Interceptor/intercept(_:context:next:)`` sends the token a refresh step just set, as the built-in
/// `bearer` kind does.
///
/// ```swift
/// interceptors.register("session") { setup in
///     SessionHeader(setup: setup)   // reads setup.variable("session") and registers it as a secret per call
/// }
/// ```
public struct InterceptorSetup: Sendable {
    /// What the setups of one chain share, made once per chain: each setup then copies one reference rather
    /// than the scope, the redactor and the engine's closures (the engine builds a chain at every attempt).
    final class Chain: Sendable {
        let stepID: String
        let scope: RunScope
        let redactor: SecretRedactor
        let engine: BuiltInInterceptorSupport

        init(stepID: String, scope: RunScope, redactor: SecretRedactor, engine: BuiltInInterceptorSupport) {
            self.stepID = stepID
            self.scope = scope
            self.redactor = redactor
            self.engine = engine
        }
    }

    /// The name the workflow declares the interceptor under: its key under `interceptors:`.
    public var name: String { declaration.name.value }
    /// The id of the step whose chain is being built.
    public var stepID: String { chain.stepID }
    /// The declaration's `with:` arguments, evaluated when the chain is built; empty for a built-in kind.
    public let arguments: [String: JSONValue]

    /// The declaration, for a built-in kind's factory to read its typed fields.
    let declaration: InterceptorDeclaration
    private let chain: Chain
    /// The values runtime expressions read, without a response; its vars are read when asked.
    var scope: RunScope { chain.scope }
    /// The run's secrets.
    var redactor: SecretRedactor { chain.redactor }
    /// What built-in kinds take from the engine beyond what a program's interceptors see.
    var engine: BuiltInInterceptorSupport { chain.engine }

    /// Creates the setup of `declaration` in `chain`.
    init(declaration: InterceptorDeclaration, arguments: [String: JSONValue], chain: Chain) {
        self.arguments = arguments
        self.declaration = declaration
        self.chain = chain
    }

    /// Creates the setup of `declaration` for a chain of its own.
    init(
        declaration: InterceptorDeclaration, stepID: String, arguments: [String: JSONValue], scope: RunScope,
        redactor: SecretRedactor, engine: BuiltInInterceptorSupport
    ) {
        self.init(
            declaration: declaration, arguments: arguments,
            chain: Chain(stepID: stepID, scope: scope, redactor: redactor, engine: engine))
    }

    /// The evaluated `with:` argument `name`: `setup["tenant"]` is `setup.arguments["tenant"]`.
    public subscript(argument: String) -> JSONValue? { arguments[argument] }

    /// The value var `name` holds now, or `nil` when it has none.
    ///
    /// Read it inside `intercept`, not in the factory, to send the value it has when the request leaves.
    public func variable(_ name: String) -> JSONValue? { scope.variables[name] }

    /// The run's input `name` (defaults applied), or `nil` when the run has none of that name.
    public func input(_ name: String) -> JSONValue? { scope.inputs[name] }

    /// The environment variable `name`, or `nil` when it is unset or the workflow does not declare it
    /// under `env:` (a run sees only the variables its workflow declares).
    public func environment(_ name: String) -> String? { scope.environment[name] }

    /// Registers `value` as a secret of the run: it and its percent-encoded, JSON-escaped and base64 forms
    /// are replaced by `***` in every log line, report, span and error from then on.
    ///
    /// Register a credential before the request that carries it is passed on, so that the dispatcher's logs
    /// and errors about that request already redact it. Strings under 4 characters are replaced only
    /// where a whole value equals them (``SecretRedactor/redactWholeValues(_:)``).
    /// - Parameter value: A string, or an array or object whose strings are all secrets.
    public func registerSecret(_ value: JSONValue) { redactor.add(value) }
}
