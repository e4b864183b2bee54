import Tracing

/// The tracer of one run, or none when nobody listens, so that a run without tracing pays
/// for no spans at all.
///
/// The engine resolves its tracer once per run. When that is swift-distributed-tracing's
/// `NoOpTracer` — what `InstrumentationSystem.tracer` returns until an application
/// bootstraps one — every ``withSpan(_:ofKind:_:)`` calls its operation directly with `nil`,
/// and ``inject(into:)`` does nothing.
///
/// The tracer is kept in a class, so a copy of the run tracer — every step runner and closure of a run holds
/// one — is one reference count, not a copy of an existential.
struct RunTracer: Sendable {
    /// The tracer, boxed.
    private final class Box: Sendable {
        let tracer: any Tracer
        init(_ tracer: any Tracer) { self.tracer = tracer }
    }

    private let box: Box?

    /// The tracer, or `nil` when tracing is off.
    var tracer: (any Tracer)? { box?.tracer }

    /// Whether spans are made: a caller without a tracer can run its operation without ``withSpan(_:ofKind:_:)``.
    var isOn: Bool { box != nil }

    /// Wraps `tracer`, turning tracing off when it is a `NoOpTracer`.
    init(_ tracer: any Tracer) {
        box = tracer is NoOpTracer ? nil : Box(tracer)
    }

    /// The tracer `InstrumentationSystem.tracer` gives, wrapped.
    ///
    /// While nothing is bootstrapped (or a no-op is), tracing is off without the search for a tracer that
    /// `InstrumentationSystem.tracer` does: it casts the instrument to `any Tracer`, a conformance lookup
    /// that fails for the default `NoOpInstrument`, and every run without a tracer of its own asks.
    static var system: RunTracer {
        let instrument = InstrumentationSystem.instrument
        if type(of: instrument) == NoOpInstrument.self || type(of: instrument) == NoOpTracer.self {
            return RunTracer(box: nil)
        }
        return RunTracer(InstrumentationSystem.tracer)
    }

    private init(box: Box?) {
        self.box = box
    }

    /// Runs `operation` in a span named `name`, a child of the task's current span.
    ///
    /// The span is the task's current span while `operation` runs, so spans started in
    /// `operation` and in its child tasks are its children; it ends when `operation` returns.
    /// The name is only built when a span is made.
    func withSpan<T>(
        _ name: @autoclosure () -> String, ofKind kind: SpanKind, _ operation: (RunSpan?) async -> T
    ) async -> T {
        guard let box else { return await operation(nil) }
        return await Self.withSpan(name(), kind, in: box.tracer, operation)
    }

    /// Adds the current span's context to `headers` (W3C `traceparent` for most tracers), so
    /// the server can continue the trace.
    func inject(into headers: inout HeaderFields) {
        guard let tracer = box?.tracer, let context = InstrumentationContext.current else { return }
        tracer.inject(context, into: &headers, using: HeaderFieldsInjector())
    }

    /// Opens the existential so the tracer's own `withSpan` (with its concrete span type) runs.
    private static func withSpan<Traced: Tracer, T>(
        _ name: String, _ kind: SpanKind, in tracer: Traced, _ operation: (RunSpan?) async -> T
    ) async -> T {
        await tracer.withSpan(name, ofKind: kind) { span in await operation(RunSpan(span)) }
    }
}

/// A span of a run, in a class.
///
/// The steps and attempts of a run pass their span, or `nil` when untraced, down through a few functions, and
/// keep it in their async frames across each `await`. An optional existential there is copied and destroyed
/// through its runtime type metadata at every step, even when it is `nil`; an optional reference is a pointer.
/// Only a traced run pays for the box, one per span.
final class RunSpan: Sendable {
    let span: any Span

    init(_ span: any Span) {
        self.span = span
    }
}

/// Writes a tracer's propagation fields into ``HeaderFields``, replacing fields of the same name.
struct HeaderFieldsInjector: Injector {
    func inject(_ value: String, forKey key: String, into carrier: inout HeaderFields) {
        carrier.set(key, value)
    }
}
