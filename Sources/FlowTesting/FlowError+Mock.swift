public import FlowCore

extension FlowError.Code {
    /// A ``MockDispatcher`` received a request that none of its stubs matches.
    ///
    /// The message names the request (method, path and query, never header
    /// values or the values of credential query parameters such as `api_key`)
    /// and the closest stub with what differed (``MockMismatch/message``).
    public static let mockUnmatched = Self("mock-unmatched")
}
