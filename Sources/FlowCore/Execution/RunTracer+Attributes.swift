import Tracing

/// The attributes the engine records on its spans.
///
/// HTTP attempts follow the OpenTelemetry HTTP client semantic conventions
/// (`http.request.method`, `url.full`, `server.address`, `server.port`,
/// `http.response.status_code`, `error.type`); flowrun's own are under `flowrun.`.
/// Every value is taken from the redacted reports — URLs without credentials and
/// secret values, error messages with secrets replaced by `***` — never from the
/// request itself.
extension RunTracer {
    /// Describes a run's span before the run starts.
    static func annotate(run span: any Span, plan: Plan, id: String) {
        span.updateAttributes { attributes in
            attributes["flowrun.run.id"] = id
            attributes["flowrun.workflow.path"] = plan.workflow.path
            if let name = plan.workflow.name { attributes["flowrun.workflow.name"] = name }
        }
    }

    /// Records how a run ended.
    static func annotate(run span: any Span, error: FlowError?) {
        span.updateAttributes { attributes in
            attributes["flowrun.run.status"] = error == nil ? "succeeded" : "failed"
            if let error { attributes["error.type"] = error.code.name }
        }
        // Run errors are redacted, and input errors never quote a `format: password` value.
        if let error { span.setStatus(SpanStatus(code: .error, message: error.message)) }
    }

    /// Records how a step ended, from its redacted report.
    static func annotate(step span: any Span, report: StepReport, refreshFor requester: String?) {
        span.updateAttributes { attributes in
            attributes["flowrun.step.id"] = report.id
            attributes["flowrun.step.status"] = report.status.rawValue
            attributes["flowrun.step.attempts"] = report.attempts.count
            if let requester {
                attributes["flowrun.step.refresh"] = true
                attributes["flowrun.step.refresh_for"] = requester
            }
            if let error = report.error { attributes["error.type"] = error.code.name }
        }
        if let error = report.error { span.setStatus(SpanStatus(code: .error, message: error.message)) }
    }

    /// Records an attempt, from its redacted report.
    static func annotate(attempt span: any Span, report: AttemptReport) {
        span.updateAttributes { attributes in
            attributes["http.request.method"] = report.method
            attributes["flowrun.attempt"] = report.number
            if let item = report.item { attributes["flowrun.item"] = item }
            if let iteration = report.iteration { attributes["flowrun.iteration"] = iteration }
            if !report.url.isEmpty {
                attributes["url.full"] = report.url
                if let server = server(of: report.url) {
                    attributes["server.address"] = server.host
                    if let port = server.port { attributes["server.port"] = port }
                }
            }
            if let status = report.status { attributes["http.response.status_code"] = status }
            if let error = report.error { attributes["error.type"] = error.code.name }
        }
        if let refresh = report.refresh {
            span.addEvent(SpanEvent(
                name: "flowrun.refresh",
                attributes: [
                    "http.response.status_code": .int(Int64(refresh.status)),
                    "flowrun.refresh.step": .string(refresh.refreshStep),
                    "flowrun.refresh.ran": .bool(refresh.ranRefresh),
                ]))
        }
        // Each redirect the dispatcher followed, with the (redacted) URL it led to.
        for redirect in report.redirects {
            span.addEvent(SpanEvent(
                name: "flowrun.redirect",
                attributes: [
                    "http.response.status_code": .int(Int64(redirect.status)), "url.full": .string(redirect.url),
                ]))
        }
        if let error = report.error {
            span.recordError(error)
            span.setStatus(SpanStatus(code: .error, message: error.message))
        }
    }

    /// The host and port of an absolute `http` or `https` URL; the port is the scheme's default when the URL has none.
    static func server(of url: String) -> (host: String, port: Int?)? {
        guard let schemeEnd = url.firstRange(of: "://") else { return nil }
        let scheme = url[..<schemeEnd.lowerBound].lowercased()
        let rest = url[schemeEnd.upperBound...]
        var authority = rest[..<(rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex)]
        if let at = authority.lastIndex(of: "@") { authority = authority[authority.index(after: at)...] }
        var host = authority
        var port: Int? = scheme == "https" ? 443 : scheme == "http" ? 80 : nil
        if authority.hasPrefix("["), let close = authority.firstIndex(of: "]") {
            host = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.hasPrefix(":"), let number = Int(after.dropFirst()) { port = number }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            if let number = Int(authority[authority.index(after: colon)...]) { port = number }
        }
        return host.isEmpty ? nil : (String(host), port)
    }

    /// `duration` in whole milliseconds, for attributes.
    static func milliseconds(_ duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        return seconds * 1000 + attoseconds / 1_000_000_000_000_000
    }
}
