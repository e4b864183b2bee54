import FlowCore
import Foundation

/// Renders a run's exchanges as a HAR 1.2 log (`flowrun run --har-out`), the format browsers' developer tools
/// import (Network panel, "Import HAR file") and HTTP debuggers open.
///
/// The log has `version` `1.2`, `creator` `flowrun` and an entry per exchange, in the order they started:
/// every attempt, the `401` before a refresh and its replay, each redirect hop. An entry has every field the
/// specification requires: the request (method, URL, HTTP version, header fields, query string, body as
/// `postData`), the response (status and its reason phrase, header fields, body as `content`, `redirectURL`
/// from the `Location` header), `cache` and `timings`. What the specification leaves out is in fields that
/// start with an underscore, as it asks: `_flowrun` with the step, attempt, item, iteration and redirect;
/// `_error` on a response that never came (status `0`, as browsers record it); `_encoding` on a binary
/// request body.
///
/// The exchanges must be redacted already. Bodies are whole: UTF-8 text as it is, anything else in base64
/// (`"encoding": "base64"`). Cookies are not parsed out of their header fields (`cookies` is empty); header
/// sizes are not known (`-1`); `send` and `receive` in `timings` are the time before and after the response's
/// head when the dispatcher said when it arrived.
enum HARLog {
    /// The log of `exchanges`, which must be redacted, as JSON text ending in a newline.
    /// - Parameters:
    ///   - exchanges: The exchanges, redacted.
    ///   - comment: What the log is of.
    static func render(_ exchanges: [Exchange], comment: String) -> String {
        let ordered = exchanges.enumerated().sorted {
            ($0.element.timing.start, $0.offset) < ($1.element.timing.start, $1.offset)
        }
        let log: JSONValue = [
            "log": [
                "version": "1.2",
                "creator": ["name": "flowrun", "version": .string(FlowRunVersion.current)],
                "comment": .string(comment),
                "entries": .array(ordered.map { entry($0.element) }),
            ],
        ]
        return log.serialized(pretty: true) + "\n"
    }

    /// One entry.
    static func entry(_ exchange: Exchange) -> JSONValue {
        let timing = exchange.timing
        let total = milliseconds(timing.duration)
        let wait = timing.untilResponseHead.map(milliseconds) ?? total
        var custom: [String: JSONValue] = [
            "step": .string(exchange.stepID), "attempt": .int(exchange.attempt), "redirect": .int(exchange.redirect),
        ]
        custom["item"] = exchange.item.map { .int($0) }
        custom["iteration"] = exchange.iteration.map { .int($0) }
        return [
            "startedDateTime": .string(dateText(timing.start)),
            "time": .double(total),
            "request": request(exchange),
            "response": response(exchange),
            "cache": [:],
            "timings": ["send": 0, "wait": .double(wait), "receive": .double(rounded(max(0, total - wait)))],
            "_flowrun": .object(custom),
        ]
    }

    private static func request(_ exchange: Exchange) -> JSONValue {
        let request = exchange.request
        var fields: [String: JSONValue] = [
            "method": .string(request.method),
            "url": .string(request.url),
            "httpVersion": .string(exchange.httpVersion ?? ""),
            "cookies": [],
            "headers": headers(request.headers),
            "queryString": .array(queryString(of: request.url)),
            "headersSize": -1,
            "bodySize": .int(request.body?.count ?? 0),
        ]
        if let body = request.body, !body.isEmpty {
            var postData: [String: JSONValue] = ["mimeType": .string(request.headers["Content-Type"] ?? "")]
            if let text = String(validating: body, as: UTF8.self) {
                postData["text"] = .string(text)
            } else {
                postData["text"] = .string(Data(body).base64EncodedString())
                postData["_encoding"] = "base64"
            }
            fields["postData"] = .object(postData)
        }
        return .object(fields)
    }

    private static func response(_ exchange: Exchange) -> JSONValue {
        guard let response = exchange.response else {
            return [
                "status": 0, "statusText": "", "httpVersion": .string(exchange.httpVersion ?? ""), "cookies": [],
                "headers": [], "content": ["size": 0, "mimeType": "x-unknown"], "redirectURL": "",
                "headersSize": -1, "bodySize": -1,
                "_error": .string(exchange.error.map { "\($0.code): \($0.message)" } ?? "no response"),
            ]
        }
        var content: [String: JSONValue] = [
            "size": .int(response.body.count), "mimeType": .string(response.headers["Content-Type"] ?? "x-unknown"),
        ]
        if !response.body.isEmpty {
            if let text = String(validating: response.body, as: UTF8.self) {
                content["text"] = .string(text)
            } else {
                content["text"] = .string(Data(response.body).base64EncodedString())
                content["encoding"] = "base64"
            }
        }
        let isRedirect = (300..<400).contains(response.status)
        return [
            "status": .int(response.status),
            "statusText": .string(HTTPReasonPhrase.of(response.status)),
            "httpVersion": .string(exchange.httpVersion ?? ""),
            "cookies": [],
            "headers": headers(response.headers),
            "content": .object(content),
            "redirectURL": .string(isRedirect ? response.headers["Location"] ?? "" : ""),
            "headersSize": -1,
            // Decompressed by the client, a body's size on the wire is not known.
            "bodySize": .int(response.headers["Content-Encoding"] == nil ? response.body.count : -1),
        ]
    }

    private static func headers(_ fields: HeaderFields) -> JSONValue {
        .array(fields.map { ["name": .string($0.name), "value": .string($0.value)] })
    }

    /// The query parameters of `url`, decoded: `[{"name": "limit", "value": "50"}]`.
    static func queryString(of url: String) -> [JSONValue] {
        guard let mark = url.firstIndex(of: "?") else { return [] }
        let query = url[url.index(after: mark)...].prefix { $0 != "#" }
        return query.split(separator: "&").map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func decoded(_ part: Substring) -> String {
                let spaced = part.replacingOccurrences(of: "+", with: " ")
                return spaced.removingPercentEncoding ?? spaced
            }
            return ["name": .string(decoded(parts[0])), "value": .string(parts.count > 1 ? decoded(parts[1]) : "")]
        }
    }

    /// `duration` in milliseconds, rounded to the microsecond.
    private static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return rounded(Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000)
    }

    /// `milliseconds` rounded to the microsecond, so a difference of two prints no binary noise (0.591, not
    /// 0.5909999999999993).
    private static func rounded(_ milliseconds: Double) -> Double {
        (milliseconds * 1000).rounded() / 1000
    }

    /// An ISO 8601 date in UTC with milliseconds, `2026-11-02T09:15:00.123Z`, of a time since the Unix epoch.
    private static func dateText(_ sinceEpoch: Duration) -> String {
        let (seconds, attoseconds) = sinceEpoch.components
        let date = Date(timeIntervalSince1970: Double(seconds) + Double(attoseconds) / 1e18)
        return date.formatted(
            Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: TimeZone(identifier: "UTC")!))
    }
}
