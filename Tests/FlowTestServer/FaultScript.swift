import Synchronization

/// A script of faults for the test server: per path, an ordered list of ``Fault``s, one consumed per request,
/// the last one repeating.
///
/// ```swift
/// let script = FaultScript(["/items": [.fail(503), .fail(503), .ok(#"{"id":1}"#)]])
/// try await withTestServer(script.handler) { server in
///     // The first two requests to /items get 503, every later one 200.
/// }
/// ```
///
/// A path without a script (or with an empty one) gets ``fallback``. The
/// server records every request (``TestHTTPServer/requests``, with the time
/// it arrived), so a test can compare what the engine did with what the
/// script made it see.
package final class FaultScript: Sendable {
    /// The faults still to serve, per path.
    private let remaining: Mutex<[String: [Fault]]>
    /// What a path without a script gets.
    package let fallback: Fault

    /// Creates a script.
    /// - Parameters:
    ///   - faults: The faults per path (the request path without its query), in the order to serve them.
    ///   - fallback: What paths without a script get; a JSON 404 by default.
    package init(
        _ faults: [String: [Fault]] = [:],
        fallback: Fault = .fail(404, body: #"{"message":"the fault script has nothing for this path"}"#)
    ) {
        self.remaining = Mutex(faults)
        self.fallback = fallback
    }

    /// Sets, or replaces, the faults of `path`.
    package func set(_ path: String, _ faults: [Fault]) {
        remaining.withLock { $0[path] = faults }
    }

    /// The fault for the next request to `path`: the first one left, or the last one once only it is left.
    package func next(for path: String) -> Fault {
        remaining.withLock { all in
            guard var faults = all[path], let first = faults.first else { return fallback }
            if faults.count > 1 {
                faults.removeFirst()
                all[path] = faults
            }
            return first
        }
    }

    /// The reply to `request`, consuming one fault of its path.
    package func reply(to request: RecordedRequest) -> TestReply {
        next(for: request.path).reply
    }

    /// A handler for ``withTestServer(_:_:)`` that answers from this script.
    package var handler: @Sendable (RecordedRequest) -> TestReply {
        { [self] request in reply(to: request) }
    }
}
