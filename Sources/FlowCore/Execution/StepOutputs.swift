/// A step's outputs: what `$steps.<id>.outputs` reads once the step has run, and what its report shows.
///
/// A plain step's attempt binds them by position among the output names its plan declares
/// (``PlannedStep/outputNames``), and the run records them in its ``OutputTable`` as they are: no dictionary is
/// made, filled, looked up and freed for a step that succeeds, which was a third of what the engine spent on a
/// step beyond the request itself. Outputs made any other way (a loop's, a `forEach`'s, a fallback's) are kept
/// by name. Either way ``named`` gives them by name, and they encode as that dictionary.
struct StepOutputs: Sendable, Codable, ExpressibleByDictionaryLiteral {
    private enum Storage: Sendable {
        case named([String: JSONValue])
        /// `values[i]` is output `names[i]`, `nil` when the step produced no such output.
        case positioned(names: [String], values: [JSONValue?])
    }

    private var storage: Storage

    /// No outputs.
    static let none = StepOutputs([:])

    /// Outputs by name.
    init(_ named: [String: JSONValue]) {
        storage = .named(named)
    }

    /// Outputs by name, as a literal writes them.
    init(dictionaryLiteral elements: (String, JSONValue)...) {
        storage = .named(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }

    /// Outputs by position: `values[i]` is output `names[i]`, `nil` when the step produced none by that name.
    init(names: [String], values: [JSONValue?]) {
        storage = .positioned(names: names, values: values)
    }

    /// The outputs by name; made when asked for outputs kept by position.
    var named: [String: JSONValue] {
        switch storage {
        case .named(let named):
            return named
        case .positioned(let names, let values):
            var named: [String: JSONValue] = [:]
            for (name, value) in zip(names, values) {
                if let value { named[name] = value }
            }
            return named
        }
    }

    /// Whether there are none.
    var isEmpty: Bool {
        switch storage {
        case .named(let named): named.isEmpty
        case .positioned(_, let values): !values.contains { $0 != nil }
        }
    }

    /// The output called `name`, or `nil` when there is none.
    func value(named name: String) -> JSONValue? {
        switch storage {
        case .named(let named):
            return named.value(forFewKeys: name)
        case .positioned(let names, let values):
            guard let index = names.firstIndex(of: name), index < values.count else { return nil }
            return values[index]
        }
    }

    /// The outputs in the order of `names`, `nil` for a name without one: kept as they are when they were bound
    /// for those very names.
    func values(for names: [String]) -> [JSONValue?] {
        if case .positioned(let own, let values) = storage, own == names { return values }
        return names.map { value(named: $0) }
    }

    /// The outputs with the secrets `redactor` knows replaced, as reports show them; the same storage when
    /// nothing is secret.
    func redacted(by redactor: SecretRedactor) -> StepOutputs {
        switch storage {
        case .named(let named):
            return StepOutputs(redactor.redact(.object(named)).objectValue ?? [:])
        case .positioned(let names, let values):
            guard let redacted = redactor.redacted(values) else { return self }
            return StepOutputs(names: names, values: redacted)
        }
    }

    init(from decoder: any Decoder) throws {
        storage = .named(try [String: JSONValue](from: decoder))
    }

    func encode(to encoder: any Encoder) throws {
        try named.encode(to: encoder)
    }
}
