import Foundation

/// When an ``Exchange`` started and how long it took.
public struct ExchangeTiming: Sendable, Hashable {
    /// When the request started, on the wall clock: the time since 1970-01-01 00:00:00 UTC.
    public var start: Duration
    /// From the start until the whole response was read, or the request failed.
    public var duration: Duration
    /// From the start until the response's head (status and header fields) arrived; `nil` when the dispatcher
    /// does not say.
    public var untilResponseHead: Duration?

    /// Creates a timing.
    /// - Parameters:
    ///   - start: The wall-clock start, as the time since 1970-01-01 00:00:00 UTC.
    ///   - duration: The whole exchange's duration.
    ///   - untilResponseHead: The time until the response's head arrived.
    public init(start: Duration, duration: Duration, untilResponseHead: Duration? = nil) {
        self.start = start
        self.duration = duration
        self.untilResponseHead = untilResponseHead
    }
}

/// Times one ``Exchange``: started when the request is about to be sent, told when the response's head
/// arrives, stopped when the response is read.
///
/// ```swift
/// var stopwatch = ExchangeStopwatch()
/// let head = try await client.send(request)
/// stopwatch.responseHeadArrived()
/// let body = try await head.readBody()
/// let timing = stopwatch.stop()
/// ```
public struct ExchangeStopwatch: Sendable {
    /// The wall-clock start.
    private let wallClockStart: Duration
    /// The start on the continuous clock, which durations are measured on (the wall clock can jump).
    private let started: ContinuousClock.Instant
    /// When the response's head arrived.
    private var headArrived: ContinuousClock.Instant?

    /// Starts timing now.
    public init() {
        let seconds = Date().timeIntervalSince1970
        wallClockStart = .nanoseconds(Int64((seconds * 1e9).rounded()))
        started = .now
    }

    /// Notes that the response's head arrived now.
    public mutating func responseHeadArrived() {
        headArrived = .now
    }

    /// Notes that the response's head arrived at `instant`, as a transport that saw it arrive says.
    /// - Parameter instant: When the head arrived, on the continuous clock.
    public mutating func responseHeadArrived(at instant: ContinuousClock.Instant) {
        headArrived = instant
    }

    /// The timing from the start until now.
    public func stop() -> ExchangeTiming {
        ExchangeTiming(
            start: wallClockStart, duration: started.duration(to: .now),
            untilResponseHead: headArrived.map { started.duration(to: $0) })
    }
}
