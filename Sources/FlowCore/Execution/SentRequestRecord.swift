import Synchronization

/// The request as the dispatcher last received it in an attempt, after every interceptor ran.
///
/// The report shows this URL — with the query parameters interceptors added, redacted — rather than the
/// one the request builder made. A refresh replay sends the request again; the last one is kept.
final class SentRequestRecord: Sendable {
    private let request = Mutex<StepRequest?>(nil)

    /// The last request sent, or `nil` when none reached the dispatcher.
    var last: StepRequest? { request.withLock { $0 } }

    /// Records `sent` as the last request sent.
    func record(_ sent: StepRequest) { request.withLock { $0 = sent } }
}

extension HeaderFields {
    /// The names of the fields of `self` that `original` lacks or holds with another value: the header
    /// fields that interceptors added or changed, when `self` is what they made of `original`.
    func namesAddedOrChanged(since original: HeaderFields) -> [String] {
        var names: [String] = []
        for field in self where original[field.name] != field.value {
            let lowered = field.name.lowercased()
            if !names.contains(where: { $0.lowercased() == lowered }) { names.append(field.name) }
        }
        return names
    }
}
