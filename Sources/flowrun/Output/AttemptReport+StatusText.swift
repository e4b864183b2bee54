import FlowCore

extension AttemptReport {
    /// The attempt's statuses as the human and JUnit reports show them: `200`, or `401 → refresh-token → 200`
    /// when the first response asked for new credentials and the replay answered (`(shared)` when another
    /// step's request ran the refresh); `nil` when no response arrived.
    var statusText: String? {
        guard let refresh else { return status.map(String.init) }
        let refreshed = refresh.refreshStep + (refresh.ranRefresh ? "" : " (shared)")
        return "\(refresh.status) → \(refreshed)" + (status.map { " → \($0)" } ?? "")
    }
}

extension AttemptReport {
    /// The attempt's URL as the human and JUnit reports show it, with every redirect followed:
    /// `http://a/x (302 → http://b/y)`.
    var urlText: String {
        guard !redirects.isEmpty else { return url }
        return url + " (" + redirects.map { "\($0.status) → \($0.url)" }.joined(separator: ", ") + ")"
    }
}
