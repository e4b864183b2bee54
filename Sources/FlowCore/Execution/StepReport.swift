/// What happened to one step.
///
/// A report keeps its fields in one copy-on-write box. A step's report travels from the step runner through
/// its result, the run's event, the machine's action and the run's list of reports, and every copy of a struct
/// of a dozen strings, arrays and optionals retained each of them (about 20 reference counts per copy); the
/// box is one. A copy that is changed gets a box of its own first, so it still leaves the original alone.
public struct StepReport: Sendable, Codable {
    /// How a step ended.
    public enum Status: String, Sendable, Codable {
        /// The step got a success response.
        case succeeded
        /// The step failed and the failure ended the run.
        case failed
        /// The step failed and a `catch` rule handled it (fallback, run-then-continue, end).
        case recovered
        /// The step never started because the run ended first.
        case skipped
    }

    /// The loop of a `repeat` or `paginate` step.
    public enum Loop: String, Sendable, Codable {
        /// `repeat:`: the request again until (or while) a condition holds.
        case `repeat`
        /// `paginate:`: page after page of a list.
        case paginate

        /// What one iteration is called: "iteration" or "page".
        public var unit: String {
            switch self {
            case .repeat: "iteration"
            case .paginate: "page"
            }
        }
    }

    /// The report's fields as a plain struct: its synthesized coding is the report's, key for key, as it was
    /// before the fields moved into a box.
    private struct Fields: Codable {
        var id: String
        var status: Status
        var attempts: [AttemptReport]
        var startedAfter: Duration
        var duration: Duration
        var outputs: StepOutputs
        var error: FlowError?
        var refreshFor: String?
        var skipReason: String?
        var itemCount: Int?
        var iterationCount: Int?
        var loop: Loop?
        var workflow: String?
        var subSteps: [StepReport] = []
        var chose: String?
        var matchedCase: String?
    }

    /// The box. Its fields change only through ``fields``, which gives a shared box's copy a box of its own first.
    private final class Storage: @unchecked Sendable {
        /// Unchecked: every access goes through ``StepReport/fields``, which gives a report that changes a box of
        /// its own first, so no two accesses can overlap; checked, each read of a field (the run reads a few of
        /// every report it records) was a call into the runtime's exclusivity tracking.
        @exclusivity(unchecked) var fields: Fields

        init(_ fields: Fields) {
            self.fields = fields
        }
    }

    private var storage: Storage

    /// The fields for changing one of them in place, after copying them into a box of their own when another
    /// report shares this one. A coroutine rather than a setter: appending to ``attempts`` or ``subSteps``
    /// then changes the array in place instead of copying it whole (a `forEach` step adds each item's attempts).
    private var fields: Fields {
        get { storage.fields }
        _modify {
            if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.fields) }
            yield &storage.fields
        }
    }

    /// The step's id.
    public var id: String {
        get { storage.fields.id }
        _modify { yield &fields.id }
    }
    /// How it ended.
    public var status: Status {
        get { storage.fields.status }
        _modify { yield &fields.status }
    }
    /// Every attempt, in order.
    public var attempts: [AttemptReport] {
        get { storage.fields.attempts }
        _modify { yield &fields.attempts }
    }
    /// When the step started, relative to the start of the run.
    public var startedAfter: Duration {
        get { storage.fields.startedAfter }
        _modify { yield &fields.startedAfter }
    }
    /// How long the step took, retries and delays included.
    public var duration: Duration {
        get { storage.fields.duration }
        _modify { yield &fields.duration }
    }
    /// The step's outputs (secrets redacted).
    public var outputs: [String: JSONValue] {
        get { storage.fields.outputs.named }
        set { fields.outputs = StepOutputs(newValue) }
    }
    /// The error, when the step failed or was recovered.
    public var error: FlowError? {
        get { storage.fields.error }
        _modify { yield &fields.error }
    }
    /// For an on-demand step that a refresh interceptor ran: the id of the step whose response asked for new
    /// credentials.
    public var refreshFor: String? {
        get { storage.fields.refreshFor }
        _modify { yield &fields.refreshFor }
    }
    /// For a skipped step: why it did not run, such as "its 'if' did not hold: $inputs.notify == true";
    /// `nil` when the run ended before it started.
    public var skipReason: String? {
        get { storage.fields.skipReason }
        _modify { yield &fields.skipReason }
    }
    /// For a `forEach` step: how many items its array had (its attempts say which item each was for).
    public var itemCount: Int? {
        get { storage.fields.itemCount }
        _modify { yield &fields.itemCount }
    }
    /// For a `repeat` or `paginate` step: how many iterations (pages) ran (its attempts say which iteration
    /// each was for).
    public var iterationCount: Int? {
        get { storage.fields.iterationCount }
        _modify { yield &fields.iterationCount }
    }
    /// For a `repeat` or `paginate` step: which of the two loops it is.
    public var loop: Loop? {
        get { storage.fields.loop }
        _modify { yield &fields.loop }
    }
    /// For a `workflow:` step: the called file, as the step names it.
    public var workflow: String? {
        get { storage.fields.workflow }
        _modify { yield &fields.workflow }
    }
    /// For a `workflow:` step: the reports of the called workflow's steps, in the order they finished (empty
    /// when its run stopped before its first step, such as for invalid inputs).
    public var subSteps: [StepReport] {
        get { storage.fields.subSteps }
        _modify { yield &fields.subSteps }
    }
    /// For a `switch` step that ran: the id of the case step it ran, whose attempts, outputs and error are the
    /// switch step's.
    public var chose: String? {
        get { storage.fields.chose }
        _modify { yield &fields.chose }
    }
    /// For a `switch` step that ran: the case key its value matched, as written, or `default`.
    public var matchedCase: String? {
        get { storage.fields.matchedCase }
        _modify { yield &fields.matchedCase }
    }

    /// Creates a report; the parameters are the fields, as the memberwise initializer of a plain struct has them.
    init(
        id: String, status: Status, attempts: [AttemptReport], startedAfter: Duration, duration: Duration,
        outputs: StepOutputs, error: FlowError? = nil, refreshFor: String? = nil, skipReason: String? = nil,
        itemCount: Int? = nil, iterationCount: Int? = nil, loop: Loop? = nil, workflow: String? = nil,
        subSteps: [StepReport] = [], chose: String? = nil, matchedCase: String? = nil
    ) {
        storage = Storage(Fields(
            id: id, status: status, attempts: attempts, startedAfter: startedAfter, duration: duration,
            outputs: outputs, error: error, refreshFor: refreshFor, skipReason: skipReason, itemCount: itemCount,
            iterationCount: iterationCount, loop: loop, workflow: workflow, subSteps: subSteps, chose: chose,
            matchedCase: matchedCase))
    }

    /// Decodes a report as ``encode(to:)`` writes it.
    /// - Parameter decoder: The decoder.
    /// - Throws: `DecodingError` when a field is missing or of another type.
    public init(from decoder: any Decoder) throws {
        storage = Storage(try Fields(from: decoder))
    }

    /// Encodes the report's fields under their names, as a struct of them would.
    /// - Parameter encoder: The encoder.
    /// - Throws: What the encoder throws.
    public func encode(to encoder: any Encoder) throws {
        try storage.fields.encode(to: encoder)
    }
}
