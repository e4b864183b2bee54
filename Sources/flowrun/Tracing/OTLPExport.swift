#if OTLP
import Foundation
import Logging
import OTel
import ServiceLifecycle
import Tracing

/// `flowrun run --otlp-endpoint URL`: swift-otel's tracing backend, posting the run's spans to an
/// OpenTelemetry collector over OTLP/HTTP (protobuf), and the background work that batches and sends them.
///
/// ``start(endpoint:mirror:)`` installs an ``OTLPTracer`` as the process's tracer; ``finish()`` sends what is
/// left and stops. Each export may take ``exportTimeout`` (`OTEL_BSP_EXPORT_TIMEOUT` and
/// `OTEL_EXPORTER_OTLP_TIMEOUT` change it), so a collector that does not answer delays the exit by that
/// much at most; a failed export is a warning (``OTLPExportWarnings``), never the run's failure.
///
/// swift-otel reads the standard `OTEL_*` variables: `OTEL_SERVICE_NAME` (`flowrun` by default),
/// `OTEL_RESOURCE_ATTRIBUTES`, `OTEL_EXPORTER_OTLP_HEADERS`, `OTEL_EXPORTER_OTLP_COMPRESSION`,
/// `OTEL_EXPORTER_OTLP_CERTIFICATE`, their `_TRACES_` forms, and the rest. The endpoint is the option's:
/// `OTEL_EXPORTER_OTLP_ENDPOINT` and `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` do not override it.
final class OTLPExport: Sendable {
    /// How long sending a batch of spans may take before it is given up, by default.
    static let exportTimeout: Duration = .seconds(5)

    /// How long one request to the collector may take, by default: less than ``exportTimeout``, so that a
    /// collector that cannot be reached is named by the HTTP client's error (connection refused), which it
    /// reports when the request's time is up, rather than by the export's timeout.
    static let requestTimeout: Duration = .seconds(4)

    private let group: ServiceGroup
    private let work: Task<Void, Never>

    private init(group: ServiceGroup) {
        self.group = group
        work = Task { try? await group.run() }
    }

    /// Makes the backend, starts its background work and installs the tracer for the whole process.
    /// - Parameters:
    ///   - endpoint: Where to post the spans.
    ///   - mirror: The `--trace-out` tracer that writes the same spans to a file, if any.
    /// - Throws: swift-otel's error when its configuration, from the `OTEL_*` variables, is invalid.
    static func start(endpoint: OTLPEndpoint, mirror: JSONLinesTracer?) throws -> OTLPExport {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "flowrun"
        configuration.diagnosticLogger = .custom(Logger(label: "flowrun.otlp") { _ in
            OTLPExportWarnings(endpoint: endpoint)
        })
        configuration.diagnosticLogLevel = .warning
        configuration.propagators = [.traceContext]
        configuration.metrics.enabled = false
        configuration.logs.enabled = false
        configuration.traces.exporter = .otlp
        configuration.traces.otlpExporter.protocol = .httpProtobuf
        configuration.traces.otlpExporter.endpoint = endpoint.tracesURL
        configuration.traces.otlpExporter.timeout = requestTimeout
        configuration.traces.batchSpanProcessor.exportTimeout = exportTimeout
        // swift-otel lets the environment override the configuration; the command line wins here.
        setenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT", endpoint.tracesURL, 1)
        let (backend, service) = try OTel.makeTracingBackend(configuration: configuration)
        InstrumentationSystem.bootstrap(OTLPTracer(backend: backend, mirror: mirror))
        return OTLPExport(group: ServiceGroup(services: [service], logger: Logger(label: "flowrun.otlp") { _ in
            SwiftLogNoOpLogHandler()
        }))
    }

    /// Exports the spans that ended and have not been sent, then stops the background work.
    ///
    /// Returns within about ``exportTimeout`` even when the collector does not answer.
    func finish() async {
        await group.triggerGracefulShutdown()
        await work.value
    }
}
#endif
