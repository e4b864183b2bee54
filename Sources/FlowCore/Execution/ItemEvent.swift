/// Something that happened to a `forEach` step's items, from its ``ItemStateMachine``'s point of view: the only
/// way anything the machine decides on reaches it.
///
/// The events carry no item's value, outputs or error message, only what the decisions read: how many items
/// there are, which item finished and whether it failed (with its error's code: a cancellation is not a failure
/// of the item's own), and that the step was cancelled. So the events of a step, encoded and decoded again,
/// lead a new machine with the same `maxConcurrency` and `onItemFailure` to the same actions.
enum ItemEvent: Sendable, Codable {
    /// The step evaluated its `forEach` array, of `itemCount` items, and is ready to start them.
    case started(itemCount: Int)
    /// The item at `index`, which an ``ItemStateMachine/Action/startItems(_:)`` started, finished with
    /// `outcome`.
    case itemFinished(index: Int, outcome: ItemOutcome)
    /// The step's task was cancelled (the run was cancelled, or another step's failure ended it): no further
    /// item starts.
    case cancelled
}

/// How one item of a `forEach` step ended.
enum ItemOutcome: Equatable, Sendable {
    /// The item's run of the step succeeded.
    case succeeded
    /// The item's run of the step failed with an error of this code.
    case failed(FlowError.Code)
}

/// An outcome encodes as `"succeeded"` or `{"failed": "<code name>"}`: ``FlowError/Code`` is public and has no
/// `Codable` conformance of its own.
extension ItemOutcome: Codable {
    private enum CodingKeys: String, CodingKey {
        case failed
    }

    init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: CodingKeys.self) {
            self = .failed(FlowError.Code(try container.decode(String.self, forKey: .failed)))
            return
        }
        let text = try decoder.singleValueContainer().decode(String.self)
        guard text == "succeeded" else {
            let context = DecodingError.Context(
                codingPath: decoder.codingPath, debugDescription: "unknown item outcome '\(text)'")
            throw DecodingError.dataCorrupted(context)
        }
        self = .succeeded
    }

    func encode(to encoder: any Encoder) throws {
        switch self {
        case .succeeded:
            var container = encoder.singleValueContainer()
            try container.encode("succeeded")
        case .failed(let code):
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(code.name, forKey: .failed)
        }
    }
}
