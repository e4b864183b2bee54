/// A decoded workflow file: plain data, every part carrying its source location.
///
/// A `Workflow` is what ``WorkflowDecoder`` makes of a YAML file. It has no
/// behaviour; ``WorkflowCompiler`` resolves its references, type-checks its
/// bindings and turns it into a ``Plan``. Declarations are kept as arrays in
/// file order so diagnostics and reports follow the order the author wrote.
public struct Workflow: Sendable {
    /// The path of the file the workflow was read from.
    public var path: String
    /// The format version from the `flowrun:` key; only `1` exists.
    public var version: Int
    /// The workflow's name, used in reports.
    public var name: String?
    /// A one-line summary.
    public var summary: String?
    /// A longer description.
    public var description: String?
    /// The JSON Schema of the run's inputs; `nil` when the workflow takes none.
    public var inputs: JSONSchema?
    /// The environment variables `$env.NAME` may read: the `env:` section, in file order.
    public var environment: [EnvironmentVariable] = []
    /// The servers that steps send requests to, by name.
    public var servers: [Server]
    /// The named types that responses, bodies and inputs refer to.
    public var types: [NamedType]
    /// The run-scoped variables and their initial values.
    public var vars: [Binding]
    /// The named interceptors that steps list.
    public var interceptors: [InterceptorDeclaration]
    /// The named error policies that steps refer to.
    public var policies: [Policy]
    /// What a step uses when it doesn't say.
    public var defaults: Defaults
    /// The steps, in file order.
    public var steps: [Step]
    /// The central failure-handling rules, first match wins.
    public var catchRules: [CatchRule]
    /// The run's outputs.
    public var outputs: [Binding]
    /// The longest a whole run may take; when it passes, running steps are cancelled and the run fails.
    public var deadline: Located<Duration>?
    /// How values are checked against their types: the `validation:` section.
    public var validation = ValidationSettings()

    /// Creates an empty workflow for the file at `path`.
    /// - Parameter path: The path of the file.
    public init(path: String) {
        self.path = path
        self.version = 1
        self.servers = []
        self.types = []
        self.vars = []
        self.interceptors = []
        self.policies = []
        self.defaults = Defaults()
        self.steps = []
        self.catchRules = []
        self.outputs = []
    }
}

/// A name bound to a value template: an output, a variable, a `set` entry or a fallback value.
public struct Binding: Sendable {
    /// The bound name.
    public var name: Located<String>
    /// The value, a literal or one or more runtime expressions.
    public var value: ValueTemplate

    /// Creates a binding.
    /// - Parameters:
    ///   - name: The bound name.
    ///   - value: The value template.
    public init(name: Located<String>, value: ValueTemplate) {
        self.name = name
        self.value = value
    }
}

/// A server that steps send requests to.
public struct Server: Sendable {
    /// The server's name.
    public var name: Located<String>
    /// The base URL, which may embed `{$env.NAME}` or `{$inputs.x}`.
    public var url: ValueTemplate
    /// A description for readers.
    public var description: String?

    /// Creates a server.
    /// - Parameters:
    ///   - name: The server's name.
    ///   - url: The base URL template.
    ///   - description: A description for readers.
    public init(name: Located<String>, url: ValueTemplate, description: String? = nil) {
        self.name = name
        self.url = url
        self.description = description
    }
}

/// A named type declared under `types:`.
public struct NamedType: Sendable {
    /// The type's name.
    public var name: Located<String>
    /// The type's schema.
    public var schema: JSONSchema

    /// Creates a named type.
    /// - Parameters:
    ///   - name: The type's name.
    ///   - schema: The type's schema.
    public init(name: Located<String>, schema: JSONSchema) {
        self.name = name
        self.schema = schema
    }
}

/// What a step uses when it does not say otherwise.
public struct Defaults: Sendable {
    /// The server of steps that name none.
    public var server: Located<String>?
    /// The interceptors of steps that list none.
    public var interceptors: [Located<String>]?
    /// The policy of steps that name none.
    public var policy: Located<String>?
    /// The dispatcher of steps that name none; `http` when unset.
    public var dispatcher: Located<String>?

    /// Creates empty defaults.
    public init() {}
}
