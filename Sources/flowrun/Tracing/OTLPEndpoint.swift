import Foundation

/// Where `flowrun run --otlp-endpoint URL` posts the run's spans.
///
/// The option takes the collector's base URL, as `OTEL_EXPORTER_OTLP_ENDPOINT` does, and the spans go to
/// its `v1/traces` path: `http://127.0.0.1:4318` posts to `http://127.0.0.1:4318/v1/traces`, and
/// `https://collector.example/otlp` to `https://collector.example/otlp/v1/traces`. A URL whose path already
/// ends in `/v1/traces` (what `OTEL_EXPORTER_OTLP_TRACES_ENDPOINT` holds) is used as it is, so pasting
/// either form works.
struct OTLPEndpoint: Sendable, Hashable {
    /// The URL the spans are posted to.
    let tracesURL: String

    /// The path OTLP/HTTP collectors take traces at.
    static let tracesPath = "/v1/traces"

    /// Reads the option's value; `nil` when it is not an absolute http or https URL with a host.
    /// - Parameter text: The base URL of the collector, or its traces URL.
    init?(_ text: String) {
        guard var components = URLComponents(string: text),
            let scheme = components.scheme?.lowercased(), scheme == "http" || scheme == "https",
            let host = components.host, !host.isEmpty, components.fragment == nil
        else { return nil }
        if !components.path.hasSuffix(Self.tracesPath) {
            let base = components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path
            components.path = base + Self.tracesPath
        }
        guard let url = components.string else { return nil }
        tracesURL = url
    }
}
