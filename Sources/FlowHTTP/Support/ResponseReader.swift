import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import Synchronization

/// Reads one response, head and whole body, for AsyncHTTPClient's delegate-based `execute`, whose deadline
/// holds until the body's last byte: a dispatcher built on it keeps an attempt's time limit alone, with no
/// task or timer of its own (the async `execute`'s deadline ends when the head arrives).
///
/// The body is kept up to a size limit (a `Content-Length` over it fails at once); past it the request fails
/// with `NIOTooManyBytesError`. Whether the head had arrived, and its status, stay readable after a failure,
/// so the failure can say how far the response got.
final class ResponseReader: HTTPClientResponseDelegate {
    /// The whole response.
    struct Response: Sendable {
        var head: HTTPResponseHead
        var body: ByteBuffer
    }

    private struct State {
        var head: HTTPResponseHead?
        var headArrived: ContinuousClock.Instant?
        var body = ByteBuffer()
    }

    private let state = Mutex(State())
    private let maxBodySize: Int
    private let isHead: Bool

    /// - Parameters:
    ///   - maxBodySize: The most body bytes to accept.
    ///   - isHead: Whether the request is a `HEAD`, whose response announces a length it does not send.
    init(maxBodySize: Int, isHead: Bool) {
        self.maxBodySize = maxBodySize
        self.isHead = isHead
    }

    /// The status of the head, once it arrived; `nil` before.
    var status: Int? { state.withLock { $0.head.map { Int($0.status.code) } } }

    /// When the head arrived; `nil` before.
    var headArrived: ContinuousClock.Instant? { state.withLock { $0.headArrived } }

    func didReceiveHead(task: HTTPClient.Task<Response>, _ head: HTTPResponseHead) -> EventLoopFuture<Void> {
        state.withLock {
            $0.head = head
            $0.headArrived = .now
        }
        if !isHead, let length = head.headers.first(name: "Content-Length").flatMap(Int.init), length > maxBodySize {
            return task.eventLoop.makeFailedFuture(NIOTooManyBytesError(maxBytes: maxBodySize))
        }
        return task.eventLoop.makeSucceededVoidFuture()
    }

    func didReceiveBodyPart(task: HTTPClient.Task<Response>, _ buffer: ByteBuffer) -> EventLoopFuture<Void> {
        let fits = state.withLock { state -> Bool in
            guard state.body.readableBytes + buffer.readableBytes <= maxBodySize else { return false }
            var buffer = buffer
            state.body.writeBuffer(&buffer)
            return true
        }
        return fits
            ? task.eventLoop.makeSucceededVoidFuture()
            : task.eventLoop.makeFailedFuture(NIOTooManyBytesError(maxBytes: maxBodySize))
    }

    func didFinishRequest(task: HTTPClient.Task<Response>) throws -> Response {
        try state.withLock { state in
            guard let head = state.head else { throw HTTPClientError.remoteConnectionClosed }
            return Response(head: head, body: state.body)
        }
    }
}
