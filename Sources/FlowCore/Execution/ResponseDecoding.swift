/// Reads a response body into the value `$response.body` reads: by its `Content-Type`, or as the step's
/// `parse:` says (a built-in ``BodyFormat`` or a registered ``ResponseParser``).
///
/// Every response is read here, failed ones too, so `catch` rules can read `$response`. A body that does
/// not read as it should is an error only for a success status; a failed response is then read as text.
struct ResponseDecoding: Sendable {
    let parsers: ResponseParserRegistry

    /// The decoded response, and the error that fails the step when its status is a success.
    struct Outcome {
        var response: DecodedResponse
        var error: FlowError?
    }

    /// Reads `response`, whose step's `parse:` is `parsing`, to the request sent to `url`.
    func decode(_ response: StepResponse, parsing: ResponseParsing?, url: String? = nil) -> Outcome {
        let contentType = response.headers["Content-Type"]
        // Text for messages only: made when one is written, not for every response.
        var received: String { BodyReading.received(contentType) }
        func decoded(_ body: JSONValue, _ reading: BodyReading?) -> DecodedResponse {
            DecodedResponse(status: response.status, headers: response.headers, body: body, reading: reading, url: url)
        }
        func failed(_ message: String) -> Outcome {
            // What arrived is still bound, as text, so a `catch` rule can read it.
            let body: JSONValue =
                response.body.isEmpty ? .null : .string(BodyFormat.text(response.body, contentType: contentType))
            let error = FlowError(.decode, message, status: response.status, excerpt: StepRunner.excerpt(response.body))
            return Outcome(
                response: decoded(body, BodyReading(format: .text, chosenByContentType: false, contentType: contentType)),
                error: error)
        }
        switch parsing {
        case .parser(let name)?:
            guard let parser = parsers[name] else {
                return failed("no response parser named '\(name)' is registered")
            }
            do {
                return Outcome(response: decoded(try parser.parse(response), nil))
            } catch {
                return failed(
                    "response parser '\(name)' could not read the body (\(received)): \(FlowError.reason(of: error))")
            }
        case .format(let format)?:
            do throws(BodyFormat.Failure) {
                let body = try format.read(response.body, contentType: contentType)
                return Outcome(
                    response: decoded(body, BodyReading(format: format, chosenByContentType: false, contentType: contentType)))
            } catch {
                return failed("the response body is not valid JSON ('parse: json'; \(received)): \(error.message)")
            }
        case nil:
            do throws(BodyFormat.Failure) {
                let (body, format) = try BodyFormat.readChoosing(response.body, contentType: contentType)
                return Outcome(
                    response: decoded(body, BodyReading(format: format, chosenByContentType: true, contentType: contentType)))
            } catch {
                return failed("the response body is not valid JSON (\(received)): \(error.message)")
            }
        }
    }
}

/// How a response body was read, for the message of a body that does not match its declared type.
struct BodyReading: Sendable {
    /// The format the body was read in.
    var format: BodyFormat
    /// Whether the `Content-Type` (or its absence) chose the format, rather than the step's `parse:`.
    var chosenByContentType: Bool
    /// The response's `Content-Type`, if it had one.
    var contentType: String?

    /// What the server sent: "Content-Type: text/html", or "no Content-Type".
    var received: String { Self.received(contentType) }

    /// "Content-Type: text/html" for `contentType`, or "no Content-Type".
    static func received(_ contentType: String?) -> String {
        contentType.map { "Content-Type: \($0)" } ?? "no Content-Type"
    }

    /// Whether a body whose JSON type is not the declared one may be JSON under the wrong label: it was read
    /// as text, a form or bytes because of its `Content-Type`.
    var isLikelyMislabelledJSON: Bool { chosenByContentType && format != .json }

    /// "text (Content-Type: text/html)", or "text ('parse: text'; Content-Type: application/json)".
    var description: String {
        chosenByContentType ? "\(format.rawValue) (\(received))" : "\(format.rawValue) ('parse: \(format.rawValue)'; \(received))"
    }
}
