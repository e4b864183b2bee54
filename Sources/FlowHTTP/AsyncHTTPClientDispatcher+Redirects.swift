import FlowCore
import Logging

extension AsyncHTTPClientDispatcher {
    /// What the dispatcher does with a redirect to another origin: another scheme, host or port.
    public enum CrossOriginRedirects: Sendable {
        /// Follow it without the header fields that interceptors added
        /// (``StepContext/interceptorHeaderNames(in:)``: credentials, API keys, signatures) and without
        /// `Authorization`, `Proxy-Authorization` and `Cookie`, as curl does.
        case withoutCredentials
        /// Refuse it: the attempt fails with ``FlowError/Code/transport``.
        case refuse
    }

    /// The request to send after `response`, when it is a redirect to follow, or `nil` to return `response`.
    ///
    /// Follows `301`, `302`, `303`, `307` and `308` with a `Location`, hop by hop, so every hop is logged and
    /// reported and the header fields are checked at each: `303` (and `301`/`302` after a `POST`) continue
    /// as a `GET` without a body, the others keep the method and body. On a change of scheme, host or port,
    /// ``Configuration/crossOriginRedirects`` decides.
    func nextHop(
        after response: StepResponse, of request: StepRequest, target: RequestTarget, failures: FailureMapper,
        context: StepContext
    ) throws(FlowError) -> StepRequest? {
        guard configuration.maxRedirects > 0, [301, 302, 303, 307, 308].contains(response.status),
            let location = response.headers["Location"], !location.isEmpty
        else { return nil }
        var next = request
        next.url = target.resolve(location)
        let nextTarget = RequestTarget(next)
        guard nextTarget.scheme == "http" || nextTarget.scheme == "https", nextTarget.hasHost else {
            throw failures.map(
                FlowError(.transport, "the server redirected to a URL that is not http or https"),
                phase: .waitingForHead)
        }
        if response.status == 303 || (response.status != 307 && response.status != 308 && request.method == "POST") {
            if request.method != "HEAD" { next.method = "GET" }
            next.body = nil
            for name in ["Content-Type", "Content-Length", "Content-Encoding"] { next.headers.remove(name) }
        }
        if !nextTarget.hasSameOrigin(as: target) {
            let description = nextTarget.description(redactedBy: context.redactor)
            switch configuration.crossOriginRedirects {
            case .refuse:
                throw failures.map(
                    FlowError(
                        .transport,
                        "refused to follow a redirect (status \(response.status)) to another origin: \(description)"),
                    phase: .waitingForHead)
            case .withoutCredentials:
                let credentials = ["Authorization", "Proxy-Authorization", "Cookie"]
                for name in context.interceptorHeaderNames(in: request) + credentials { next.headers.remove(name) }
            }
        }
        context.logger.debug(
            "following redirect",
            metadata: [
                "http.status": "\(response.status)",
                "http.request": "\(nextTarget.description(redactedBy: context.redactor))",
            ])
        return next
    }
}
