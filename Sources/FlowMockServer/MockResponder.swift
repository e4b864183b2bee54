import FlowCore
import FlowTesting
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore

/// Answers a ``MockServer``'s requests: the admin endpoints under ``MockServer/adminPrefix`` itself, every
/// other request from the stubs through a ``MockDispatcher``, so matching, sequences and delays are exactly the
/// in-process mock's.
struct MockResponder: HTTPResponder {
    typealias Context = BasicRequestContext

    /// Answers from the stubs; it keeps no record, since ``record`` keeps one with times.
    let dispatcher: MockDispatcher
    /// The calls the stubs answered (and the unmatched ones), for `GET /__flowrun/calls`.
    let record: ServedCallRecord
    /// The largest request body read; a larger one is answered 413.
    let maxBodySize: Int
    /// Told every call, admin ones included, once it is answered.
    let onRequest: @Sendable (ServedCall) -> Void
    /// The context every dispatch runs in: the dispatcher records a step and attempt, which a server has not.
    let stepContext: StepContext

    func respond(to request: Request, context: Context) async throws -> Response {
        let receivedAt = Date()
        let start = ContinuousClock.now
        let target = request.uri.path + (request.uri.query.map { "?" + $0 } ?? "")
        // The request log's line comes once the answer is ready; this says when the request came in.
        context.logger.debug("received \(request.method.rawValue) \(ServedCall.redact(target: target))")
        let (response, responder) = try await answer(request, target: target)
        let call = ServedCall(
            method: request.method.rawValue, target: target, headers: HeaderFields(request.headers),
            responder: responder, status: response.status.code, receivedAt: receivedAt,
            duration: ContinuousClock.now - start)
        switch responder {
        case .stub, .unmatched: record.append(call)
        case .admin, .refused: break
        }
        onRequest(call)
        return response
    }

    /// The response to `request`, and who gave it.
    /// - Throws: The error of reading the body, other than its size (the client went away).
    private func answer(_ request: Request, target: String) async throws -> (Response, ServedCall.Responder) {
        if target.hasPrefix(MockServer.adminPrefix) || target + "/" == MockServer.adminPrefix {
            return (admin(request.method, path: request.uri.path), .admin)
        }
        let body: ByteBuffer
        do {
            body = try await request.body.collect(upTo: maxBodySize)
        } catch is NIOTooManyBytesError {
            let message = "the request body is larger than \(maxBodySize) bytes, the most flowrun mock serve reads"
            return (Self.json(.object(["error": "too-large", "message": .string(message)]), status: 413), .refused)
        }
        let stepRequest = StepRequest(
            method: request.method.rawValue,
            url: "http://" + (request.head.authority ?? "localhost") + target,
            headers: HeaderFields(request.headers),
            body: body.readableBytes == 0 ? nil : Array(body.readableBytesView))
        do {
            switch try await dispatcher.answer(stepRequest, context: stepContext) {
            case .matched(let response, let call):
                let stub = call.stubIndex.map { dispatcher.stubs.stubs[$0] }
                return (Response(response), .stub(
                    name: call.stubName, label: call.stubLabel ?? "", location: stub?.location))
            case .unmatched(let mismatch, _):
                return (Self.json(Self.unmatchedBody(mismatch), status: 404), .unmatched)
            }
        } catch {
            // Only a delay cut short throws: the server is shutting down, or the client went away.
            return (Response(status: .serviceUnavailable), .refused)
        }
    }

    /// The 404 body for a request no stub matches: the message the in-process mock throws, and its parts.
    ///
    /// ```json
    /// {"closestStub": {"differences": ["path /usr does not match /user"], "location": "banking.mock.yaml:9:5",
    ///  "name": "user"}, "error": "mock-unmatched", "message": "no mock stub matches GET /usr; the closest is …"}
    /// ```
    static func unmatchedBody(_ mismatch: MockMismatch) -> JSONValue {
        var body: [String: JSONValue] = [
            "error": .string(FlowError.Code.mockUnmatched.name),
            "message": .string(mismatch.message),
            "closestStub": .null,
        ]
        if let closest = mismatch.closestStub {
            var stub: [String: JSONValue] = ["differences": .array(closest.differences.map(JSONValue.string))]
            if let name = closest.name { stub["name"] = .string(name) }
            if let location = closest.location { stub["location"] = .string(location.description) }
            body["closestStub"] = .object(stub)
        }
        return .object(body)
    }

    /// The admin endpoints: `GET /__flowrun/calls` lists the calls, `POST /__flowrun/reset` restarts every stub's
    /// sequence and forgets the calls.
    private func admin(_ method: HTTPRequest.Method, path: String) -> Response {
        switch (path, method) {
        case (MockServer.callsPath, .get):
            return Self.json(.array(record.all.map(\.json)), status: 200)
        case (MockServer.resetPath, .post):
            record.removeAll()
            dispatcher.reset()
            return Response(status: .noContent)
        case (MockServer.callsPath, _), (MockServer.resetPath, _):
            let allowed = path == MockServer.callsPath ? "GET" : "POST"
            var response = Self.json(
                .object(["error": "method-not-allowed", "message": .string("\(path) takes \(allowed)")]), status: 405)
            response.headers[.allow] = allowed
            return response
        default:
            let message = "no admin endpoint \(path); there are GET \(MockServer.callsPath) and "
                + "POST \(MockServer.resetPath)"
            return Self.json(.object(["error": "not-found", "message": .string(message)]), status: 404)
        }
    }

    /// A response with `value` as its pretty-printed JSON body.
    private static func json(_ value: JSONValue, status: Int) -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        var bytes = value.serializedBytes(pretty: true)
        bytes.append(UInt8(ascii: "\n"))
        let body = ResponseBody(byteBuffer: ByteBuffer(bytes: bytes))
        return Response(status: HTTPResponse.Status(code: status), headers: headers, body: body)
    }
}
