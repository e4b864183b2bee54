import AsyncHTTPClient
import FlowCore
import NIOCore

/// Reads a response body into memory, up to a size limit and a deadline.
enum ResponseBodyCollector {
    /// Thrown when the body did not arrive completely before the attempt's deadline.
    struct DeadlineExceeded: Error {}

    /// Collects `body`.
    ///
    /// The body is read in a child task that a timer cancels at the deadline (no task sleeps beside
    /// it); cancelling the body makes AsyncHTTPClient close the connection rather than return it,
    /// half-read, to the pool.
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
        let result: Result<ByteBuffer, any Error> = await withTimeLimit(
            ContinuousClock.now.duration(to: deadline), timers: ContinuousClock()
        ) {
            do { return .success(try await body.collect(upTo: limit)) } catch { return .failure(error) }
        } onTimeout: {
            .failure(DeadlineExceeded())
        }
        return try result.get()
    }
}
