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

extension AttemptReport {
    /// Which item or iteration the attempt was for, as the human and JUnit reports say it: `item 3`,
    /// `page 0, attempt 2`; `nil` outside a loop or `forEach`.
    func positionText(loop: StepReport.Loop?) -> String? {
        let position: String
        if let item {
            position = "item \(item)"
        } else if let iteration {
            position = "\(loop?.unit ?? "iteration") \(iteration)"
        } else {
            return nil
        }
        return number > 1 ? "\(position), attempt \(number)" : position
    }
}
