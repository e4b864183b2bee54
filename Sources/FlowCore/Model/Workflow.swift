/// A decoded workflow file: plain data, every part carrying its source location.
///
/// A `Workflow` is what ``WorkflowDecoder`` makes of a YAML file. It has no
/// behaviour; ``WorkflowCompiler`` resolves its references, type-checks its
/// bindings and turns it into a ``Plan``. Declarations are kept as arrays in
/// file order so diagnostics and reports follow the order the author wrote.
package struct Workflow: Sendable {
    /// The path of the file the workflow was read from.
    package var path: String
    /// The format version from the `flowrun:` key; only `1` exists.
    package var version: Int
    /// The workflow's name, used in reports.
    package var name: String?
    /// A one-line summary.
    package var summary: String?
    /// A longer description.
    package var description: String?
    /// The JSON Schema of the run's inputs; `nil` when the workflow takes none.
    package var inputs: JSONSchema?
    /// The environment variables `$env.NAME` may read: the `env:` section, in file order.
    package var environment: [EnvironmentVariable] = []
    /// The servers that steps send requests to, by name.
    package var servers: [Server]
    /// `openapi:`: the API description documents whose operations steps call, by name.
    package var openAPISources: [OpenAPISource] = []
    /// The named types that responses, bodies and inputs refer to.
    package var types: [NamedType]
    /// The run-scoped variables and their initial values.
    package var vars: [Binding]
    /// The named interceptors that steps list.
    package var interceptors: [InterceptorDeclaration]
    /// The named error policies that steps refer to.
    package var policies: [Policy]
    /// What a step uses when it doesn't say.
    package var defaults: Defaults
    /// The steps, in file order.
    package var steps: [Step]
    /// The ids of steps the file declares but that were left out of ``steps`` because of errors (already
    /// reported): a reference to one is not reported again as an unknown step.
    package var stepsLeftOut: Set<String> = []
    /// The central failure-handling rules, first match wins.
    package var catchRules: [CatchRule]
    /// The run's outputs.
    package var outputs: [Binding]
    /// The longest a whole run may take; when it passes, running steps are cancelled and the run fails.
    package var deadline: Located<Duration>?
    /// How values are checked against their types: the `validation:` section.
    package var validation = ValidationSettings()
    /// The id of the Arazzo workflow this was lowered from; `nil` for a flowrun workflow. An Arazzo workflow's
    /// workflow outputs that read a step that did not run are left out instead of failing the run (Arazzo's
    /// "applicable outputs"), and a `goto` to a later step passes over the steps between.
    package var arazzoWorkflowID: String?

    /// The key that declares the environment variables `$env` reads, for messages: `env`, or `x-flowrun-env` in an
    /// Arazzo document.
    package var environmentKey: String { arazzoWorkflowID == nil ? "env" : "x-flowrun-env" }

    /// Creates an empty workflow for the file at `path`.
    /// - Parameter path: The path of the file.
    package init(path: String) {
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
package struct Binding: Sendable {
    /// The bound name.
    package var name: Located<String>
    /// The value, a literal or one or more runtime expressions.
    package var value: ValueTemplate

    /// Creates a binding.
    /// - Parameters:
    ///   - name: The bound name.
    ///   - value: The value template.
    package init(name: Located<String>, value: ValueTemplate) {
        self.name = name
        self.value = value
    }
}

/// A server that steps send requests to.
package struct Server: Sendable {
    /// The server's name.
    package var name: Located<String>
    /// The base URL, which may embed `{$env.NAME}` or `{$inputs.x}`.
    package var url: ValueTemplate
    /// A description for readers.
    package var description: String?
    /// Its proxy, connect timeout and TLS files, which apply to the requests sent to it.
    package var network: ServerNetworkSettings

    /// Creates a server.
    /// - Parameters:
    ///   - name: The server's name.
    ///   - url: The base URL template.
    ///   - description: A description for readers.
    ///   - network: Its network settings; none (the dispatcher's) by default.
    package init(
        name: Located<String>, url: ValueTemplate, description: String? = nil, network: ServerNetworkSettings? = nil
    ) {
        self.name = name
        self.url = url
        self.description = description
        self.network = network ?? ServerNetworkSettings(workflowPath: name.location.path)
    }
}

/// A named type declared under `types:`.
package struct NamedType: Sendable {
    /// The type's name.
    package var name: Located<String>
    /// The type's schema.
    package var schema: JSONSchema
    /// Whether the type comes from an OpenAPI document rather than `types:`: not reported unused, and checked by
    /// the document's rules rather than flowrun's.
    package var imported = false

    /// Creates a named type.
    /// - Parameters:
    ///   - name: The type's name.
    ///   - schema: The type's schema.
    package init(name: Located<String>, schema: JSONSchema) {
        self.name = name
        self.schema = schema
    }
}

/// What a step uses when it does not say otherwise.
package struct Defaults: Sendable {
    /// The server of steps that name none.
    package var server: Located<String>?
    /// The interceptors of steps that list none.
    package var interceptors: [Located<String>]?
    /// The policy of steps that name none.
    package var policy: Located<String>?
    /// The dispatcher of steps that name none; `http` when unset.
    package var dispatcher: Located<String>?

    /// Creates empty defaults.
    package init() {}
}
