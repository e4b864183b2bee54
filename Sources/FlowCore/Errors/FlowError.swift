/// The one error type of flowrun.
///
/// Every failure — a malformed file, a binding that reads nothing, a refused
/// connection, a response that does not match its declared type — is mapped
/// into a `FlowError`, so `flowrun lint`, the workflow's `catch` rules and the
/// run report all see one shape: a stable ``Code``, a message, where it
/// happened, and the underlying cause.
///
/// `description` is compiler-style, `path:line:col: error: message`, which is
/// what `flowrun lint` prints.
public struct FlowError: Error, Sendable, CustomStringConvertible {
    /// The stable kind of a ``FlowError``.
    ///
    /// Codes are named by short kebab-case strings (`unknown-step`,
    /// `invalid-yaml`) that stay stable across releases: JSON reports, SARIF
    /// rule ids and the workflow's `catch` rules match on them. A Swift program
    /// that embeds flowrun can define its own with ``init(_:)``.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        /// The stable name of the code, for example `unknown-step`.
        public let name: String

        /// Creates a code with the given stable name.
        /// - Parameter name: A kebab-case name, unique among codes.
        public init(_ name: String) { self.name = name }

        /// The code's stable name.
        public var description: String { name }

        /// The file could not be read.
        public static let unreadableFile = Code("unreadable-file")
        /// The text is not well-formed YAML (syntax error, tab indentation, unclosed quote, binary data).
        public static let invalidYAML = Code("invalid-yaml")
        /// Well-formed YAML that flowrun does not support: a collection as a mapping key, a tag outside the
        /// core schema, a second document.
        public static let unsupportedYAML = Code("unsupported-yaml")
        /// A mapping declares the same key twice.
        public static let duplicateKey = Code("duplicate-key")
        /// The file exceeds a loader limit: size, nesting depth or alias expansion.
        public static let limitExceeded = Code("limit-exceeded")
        /// A value has the wrong YAML shape or type, such as `steps: 3`.
        public static let typeMismatch = Code("type-mismatch")
        /// A required key is missing.
        public static let missingKey = Code("missing-key")
        /// A mapping has a key that the format does not define.
        public static let unknownKey = Code("unknown-key")
        /// A value has the right type but is not allowed, such as `5 parsecs` as a duration.
        public static let invalidValue = Code("invalid-value")
        /// The `flowrun:` format version is missing or not supported.
        public static let unsupportedVersion = Code("unsupported-version")
        /// A runtime expression is malformed.
        public static let invalidExpression = Code("invalid-expression")
        /// A reference names a step that the workflow does not declare.
        public static let unknownStep = Code("unknown-step")
        /// A reference names something (type, server, interceptor, policy, var, input, output) that is not declared.
        public static let unknownReference = Code("unknown-reference")
        /// A binding reads a value whose declared type cannot flow where it is bound.
        public static let bindingTypeMismatch = Code("binding-type-mismatch")
        /// A binding reads an output of a step that its `if` may skip, with no `else` value for it and no guard.
        public static let maybeSkipped = Code("maybe-skipped")
        /// Steps depend on each other in a cycle.
        public static let dependencyCycle = Code("dependency-cycle")
        /// A `workflow:` step calls a file that cannot be read, has errors, or calls back into the caller.
        public static let subWorkflow = Code("sub-workflow")
        /// Two declarations share one name.
        public static let duplicateName = Code("duplicate-name")
        /// A declaration is never used (a warning).
        public static let unused = Code("unused")
        /// A step can never run (a warning).
        public static let unreachable = Code("unreachable")
        /// A `POST` or `PATCH` is not retried although its policy retries failures: it is not idempotent (a warning).
        public static let unretriedMethod = Code("unretried-method")
        /// A retry rule's attempts or `Retry-After` waits may not fit in the policy's total timeout (a warning).
        public static let retryBudget = Code("retry-budget")
        /// A `GET` or `HEAD` request has a body, which many servers ignore or refuse (a warning).
        public static let ignoredBody = Code("ignored-body")
        /// A failure handler reads the failed response, but a rule also runs it for failures without one (a warning).
        public static let missingResponse = Code("missing-response")
        /// A step's interceptor reads a var that another step sets, and nothing orders the two (a warning).
        public static let unorderedVar = Code("unordered-var")
        /// A plain YAML scalar in a header, query or form value is sent as other text than written (a warning).
        public static let unquotedScalar = Code("unquoted-scalar")
        /// A request path has an OpenAPI-style `{name}` placeholder, which is sent as literal text (a warning).
        public static let pathPlaceholder = Code("path-placeholder")

        /// No response: the connection was refused or reset, DNS or TLS failed, or the body was too large.
        public static let transport = Code("transport")
        /// One attempt took longer than the policy's `timeout.attempt`.
        public static let attemptTimeout = Code("timeout.attempt")
        /// The step took longer than the policy's `timeout.total`, or the run passed its deadline.
        public static let totalTimeout = Code("timeout.total")
        /// The response status is not one the step declares as a success.
        public static let httpStatus = Code("http")
        /// The response body is not the JSON (or form) the step declares.
        public static let decode = Code("decode")
        /// A value does not match its declared type: an input, a request body or a response.
        public static let validation = Code("validation")
        /// A binding could not be evaluated: a missing input or env var, a pointer that reads nothing.
        public static let binding = Code("binding")
        /// The circuit breaker is open, so no request was sent.
        public static let circuitOpen = Code("circuit-open")
        /// A successful response still matched the condition of a retry rule (`when: { if: … }`, polling)
        /// when the rule's attempts ran out.
        public static let pending = Code("pending")
        /// An Arazzo step's `successCriteria` did not all hold for its response.
        public static let criteria = Code("criteria")
        /// A `repeat` step reached `maxIterations`, or a `paginate` step `maxPages`, before its loop ended.
        public static let loopLimit = Code("loop-limit")
        /// The run was cancelled.
        public static let cancelled = Code("cancelled")
        /// An interceptor failed.
        public static let interceptor = Code("interceptor")
        /// The workflow or run asks for something this build cannot do, such as an unregistered dispatcher.
        public static let unsupported = Code("unsupported")
    }

    /// The fields, in one shared box: an error is one word wherever it is stored (a step's result and report,
    /// each attempt's report, every event), and copied only when a copy is changed.
    private final class Storage: @unchecked Sendable {
        // Mutated only through `mutableStorage`, which copies a box that is shared first.
        var code: Code
        var message: String
        var location: SourceLocation?
        var underlyingError: (any Error)?
        var stepID: String?
        var attempt: Int?
        var request: String?
        var status: Int?
        var responseExcerpt: String?

        init(code: Code, message: String, location: SourceLocation?, underlyingError: (any Error)?) {
            self.code = code
            self.message = message
            self.location = location
            self.underlyingError = underlyingError
        }

        func copy() -> Storage {
            let copy = Storage(code: code, message: message, location: location, underlyingError: underlyingError)
            copy.stepID = stepID
            copy.attempt = attempt
            copy.request = request
            copy.status = status
            copy.responseExcerpt = responseExcerpt
            return copy
        }
    }

    private var storage: Storage

    /// The box, copied first when another error shares it.
    private var mutableStorage: Storage {
        mutating get {
            if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
            return storage
        }
    }

    /// The stable kind of this error.
    public var code: Code {
        get { storage.code }
        set { mutableStorage.code = newValue }
    }
    /// A human-readable explanation that never contains secrets.
    public var message: String {
        get { storage.message }
        set { mutableStorage.message = newValue }
    }
    /// Where in the workflow file the problem is, when it has a place there.
    public var location: SourceLocation? {
        get { storage.location }
        set { mutableStorage.location = newValue }
    }
    /// The error that caused this one, when it wraps a foreign error.
    public var underlyingError: (any Error)? {
        get { storage.underlyingError }
        set { mutableStorage.underlyingError = newValue }
    }
    /// The step that failed, for run-time errors.
    public var stepID: String? {
        get { storage.stepID }
        set { mutableStorage.stepID = newValue }
    }
    /// The one-based attempt that failed, for run-time errors.
    public var attempt: Int? {
        get { storage.attempt }
        set { mutableStorage.attempt = newValue }
    }
    /// The request that failed, as `METHOD url`, with secrets redacted.
    public var request: String? {
        get { storage.request }
        set { mutableStorage.request = newValue }
    }
    /// The response status, when there was a response.
    public var status: Int? {
        get { storage.status }
        set { mutableStorage.status = newValue }
    }
    /// The start of the response body (at most 512 bytes, secrets redacted), when there was a response.
    public var responseExcerpt: String? {
        get { storage.responseExcerpt }
        set { mutableStorage.responseExcerpt = newValue }
    }

    /// Creates an error.
    /// - Parameters:
    ///   - code: The stable kind of the error.
    ///   - message: A human-readable explanation that never contains secrets.
    ///   - location: Where in the workflow file the problem is.
    ///   - underlyingError: The error that caused this one.
    public init(
        _ code: Code,
        _ message: String,
        at location: SourceLocation? = nil,
        underlyingError: (any Error)? = nil
    ) {
        storage = Storage(code: code, message: message, location: location, underlyingError: underlyingError)
    }

    /// The compiler-style `path:line:col: error: message` form; run-time errors name the step and attempt:
    /// `error: step 'user', attempt 2: status 503`.
    public var description: String {
        let place = location.map { "\($0): " } ?? ""
        let step = stepID.map { "step '\($0)'" + (attempt.map { ", attempt \($0)" } ?? "") + ": " } ?? ""
        return "\(place)error: \(step)\(message)"
    }
}

extension FlowError {
    /// How another error's message quotes `error`, which a program's code threw (an interceptor factory, a response
    /// parser): a ``FlowError`` by its ``message``, since its ``description`` adds an `error:` (and a location) that
    /// the quoting message already has; any other error by its description.
    /// - Parameter error: The error thrown.
    /// - Returns: The text to put after `…: `.
    package static func reason(of error: any Error) -> String {
        (error as? FlowError)?.message ?? "\(error)"
    }
}
