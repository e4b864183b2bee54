/// One API call of a workflow: its request, the types of its responses, and what it binds.
package struct Step: Sendable {
    /// The step's id, unique in the workflow.
    package var id: Located<String>
    /// A description for readers.
    package var description: String?
    /// Where the step is declared (its `- id:` entry).
    package var location: SourceLocation
    /// The server to send the request to; ``Defaults/server`` when `nil`.
    package var server: Located<String>?
    /// The dispatcher that performs the request; ``Defaults/dispatcher`` when `nil`.
    package var dispatcher: Located<String>?
    /// When `true`, the step runs only when an interceptor or a `catch` rule runs it.
    package var onDemand: Bool
    /// The request to send. For a `workflow:` step (``call`` set) an empty `GET` that is never sent.
    package var request: Request
    /// The declared response types by status, in file order.
    package var responses: [ResponseCase]
    /// How the response bodies are read (`parse:` under `response:`); by their `Content-Type` when `nil`.
    package var parse: Located<ResponseParsing>?
    /// The step's outputs, which later steps read as `$steps.<id>.outputs.<name>`.
    package var outputs: [Binding]
    /// Variables the step updates after it succeeds.
    package var set: [Binding]
    /// The interceptors around the call; ``Defaults/interceptors`` when `nil`.
    package var interceptors: [Located<String>]?
    /// The error policy; ``Defaults/policy`` when `nil`.
    package var policy: Located<String>?
    /// Whether the request may be retried even though its method is not idempotent.
    package var idempotent: Bool?
    /// Steps this one runs after even though it reads none of their outputs.
    package var after: [Located<String>]
    /// Whether to send an `Idempotency-Key` header, generated once per step and the same on every attempt.
    package var idempotencyKey: Bool
    /// Failure rules for this step, tried before the workflow's `catch` rules.
    package var onError: [CatchRule]
    /// What undoes this step when the run fails after it succeeded.
    package var compensation: Compensation?
    /// `if:`: the step runs only when this holds when it is ready; otherwise it is skipped and its outputs are
    /// ``otherwise``.
    package var condition: Condition?
    /// `else:`: the step's outputs when its ``condition`` does not hold.
    package var otherwise: [Binding] = []
    /// `forEach:`: the step runs once per item of an array, `$item` reading the item.
    package var forEach: ForEach?
    /// `repeat:`: the request is sent again until (or while) a condition on the response holds.
    package var repetition: Repetition?
    /// `paginate:`: the request fetches page after page of a list, collecting array outputs.
    package var pagination: Pagination?
    /// `workflow:`: the step runs another workflow file instead of sending ``request``.
    package var call: SubWorkflowCall?
    /// `operation:`: the step sends an operation of an OpenAPI document; the compiler lowers it into ``request``
    /// and ``responses`` before checking the step.
    package var operation: OperationCall?
    /// `switch:`: the step sends no request but runs the on-demand step whose case matches a value; its
    /// ``request`` is then empty.
    package var `switch`: Switch?
    /// An Arazzo step's `successCriteria`, set when an Arazzo document is lowered: when not `nil` they alone decide
    /// whether a response is a success (every status is then acceptable, and the body is not validated); when
    /// empty, a 2xx status is. `nil` for a flowrun step, whose `response:` decides.
    package var successCriteria: [Located<ArazzoCriterion>]?
    /// Whether the step was lowered from an Arazzo document: a plain flag the engine tests before it reads
    /// ``successCriteria`` or ``onSuccess``, so a flowrun step pays nothing for them.
    package var isArazzo = false
    /// What follows the step's success, the first rule whose criteria hold: an Arazzo step's `onSuccess` (and its
    /// workflow's `successActions`). When none holds, the run goes on as the plan orders it.
    package var onSuccess: [SuccessRule] = []

    /// Creates a step.
    /// - Parameters:
    ///   - id: The step's id.
    ///   - location: Where the step is declared.
    ///   - request: The request to send.
    package init(id: Located<String>, location: SourceLocation, request: Request) {
        self.id = id
        self.location = location
        self.onDemand = false
        self.request = request
        self.responses = []
        self.outputs = []
        self.set = []
        self.after = []
        self.idempotencyKey = false
        self.onError = []
    }
}

/// How a step is undone when the run fails after the step succeeded.
package enum Compensation: Sendable {
    /// Run this on-demand step.
    case step(Located<String>)
    /// Send this request, with the step's server, interceptors and policy.
    case request(Request, SourceLocation)
}

/// The request a step sends.
package struct Request: Sendable {
    /// The HTTP method, upper-case.
    package var method: Located<String>
    /// The path, relative to the server URL, which may embed `{$...}` expressions.
    package var path: ValueTemplate
    /// Where the path was written.
    package var pathLocation: SourceLocation
    /// Query parameters, in file order.
    package var query: [Binding]
    /// Header fields, in file order.
    package var headers: [Binding]
    /// The body, if any.
    package var body: RequestBody?
    /// The declared type of the body, checked before the request is sent.
    package var bodyType: JSONSchema?
    /// The query parameters whose list value is sent as one comma-separated value (OpenAPI's `form` style with
    /// `explode: false`) rather than once per element.
    package var commaSeparatedQuery: Set<String> = []
    /// The query parameters whose value is sent as its JSON text (an OpenAPI parameter with a JSON `content`), an
    /// object or list included.
    package var jsonQuery: Set<String> = []
    /// The headers whose list value is sent as one comma-separated value (an OpenAPI header parameter of a list
    /// type, style `simple`).
    package var commaSeparatedHeaders: Set<String> = []
    /// The types an OpenAPI operation declares for the parameters bound into this request, checked against the
    /// values bound to them.
    package var parameterTypes: [ParameterType] = []

    /// Creates a request without query, headers or body.
    /// - Parameters:
    ///   - method: The HTTP method.
    ///   - path: The path template.
    ///   - pathLocation: Where the path was written.
    package init(method: Located<String>, path: ValueTemplate, pathLocation: SourceLocation) {
        self.method = method
        self.path = path
        self.pathLocation = pathLocation
        self.query = []
        self.headers = []
    }
}

/// The body of a request.
package enum RequestBody: Sendable {
    /// A JSON document, sent as `application/json`.
    case json(ValueTemplate, SourceLocation)
    /// Form fields, sent as `application/x-www-form-urlencoded`.
    case form([Binding], SourceLocation)
    /// Text sent as it is, with its content type (`text/plain; charset=utf-8` unless given).
    case text(ValueTemplate, contentType: Located<String>?, SourceLocation)
    /// Fields and files, sent as `multipart/form-data` (RFC 7578).
    case multipart([MultipartPart], SourceLocation)
}

/// A status pattern under a step's `response:` and the type its body has.
package struct ResponseCase: Sendable {
    /// Which statuses a ``ResponseCase`` covers.
    package enum Status: Hashable, Sendable, CustomStringConvertible {
        /// Exactly this status code.
        case code(Int)
        /// A whole class: `2XX` is `.range(2)`.
        case range(Int)
        /// Every status no other case covers.
        case `default`

        /// Whether the pattern covers `status`.
        /// - Parameter status: An HTTP status code.
        /// - Returns: `true` when the pattern covers it.
        package func matches(_ status: Int) -> Bool {
            switch self {
            case .code(let code): code == status
            case .range(let hundreds): status / 100 == hundreds
            case .default: true
            }
        }

        /// Whether every status the pattern covers is a success (2xx).
        package var isSuccess: Bool {
            switch self {
            case .code(let code): (200..<300).contains(code)
            case .range(let hundreds): hundreds == 2
            case .default: false
            }
        }

        /// The pattern as written: `200`, `2XX` or `default`.
        package var description: String {
            switch self {
            case .code(let code): String(code)
            case .range(let hundreds): "\(hundreds)XX"
            case .default: "default"
            }
        }
    }

    /// The statuses covered.
    package var status: Located<Status>
    /// The type of the body for those statuses.
    package var schema: JSONSchema
    /// The media types an OpenAPI document describes the body with (`content`'s keys); empty when the response
    /// was declared in a workflow, or describes no content.
    package var contentTypes: [String] = []

    /// Creates a response case.
    /// - Parameters:
    ///   - status: The statuses covered.
    ///   - schema: The body's type.
    package init(status: Located<Status>, schema: JSONSchema) {
        self.status = status
        self.schema = schema
    }
}
