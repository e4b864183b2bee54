import AsyncHTTPClient
import NIOCore

/// Reads a response body into memory, up to a size limit and a deadline.
enum ResponseBodyCollector {
    /// Thrown when the body did not arrive completely before the attempt's deadline.
    struct DeadlineExceeded: Error {}

    /// Collects `body`.
    ///
    /// The body and a timer race in a task group; the loser is cancelled, and cancelling the body
    /// makes AsyncHTTPClient close the connection rather than return it, half-read, to the pool.
    ///
    /// - Parameters:
    ///   - body: The body to read.
    ///   - limit: The most bytes to accept.
    ///   - deadline: When to give up, or `nil` to wait as long as the server keeps sending.
    /// - Returns: The whole body.
    /// - Throws: `NIOTooManyBytesError` past `limit`, ``DeadlineExceeded`` past `deadline`, and
    ///   AsyncHTTPClient's errors when the connection fails.
    static func collect(
        _ body: HTTPClientResponse.Body,
        upTo limit: Int,
        before deadline: ContinuousClock.Instant?
    ) async throws -> ByteBuffer {
        guard let deadline else { return try await body.collect(upTo: limit) }
        return try await withThrowingTaskGroup(of: ByteBuffer?.self) { group in
            group.addTask { try await body.collect(upTo: limit) }
            group.addTask {
                try await Task.sleep(until: deadline, clock: .continuous)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let buffer = first else { throw DeadlineExceeded() }
            return buffer
        }
    }
}
