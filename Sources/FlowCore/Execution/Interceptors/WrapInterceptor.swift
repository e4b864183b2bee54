/// Places a JSON request body inside an envelope: the `wrap:` interceptor kind, the reverse of `unwrap:`.
///
/// `wrap: { at: /data, envelope: { device: { id: $vars.deviceId } } }` sends the body `{"a":1}` as
/// `{"data":{"a":1},"device":{"id":"d-7"}}`. Objects on the way to the pointer are created; a request without
/// a body is sent as it is. List it before `encrypt` so the envelope is what gets encrypted.
struct WrapInterceptor: RequestRewritingInterceptor {
    let pointer: JSONPointer
    let envelope: ValueTemplate?
    let scope: RunScope

    func rewrite(_ request: StepRequest, context: StepContext) throws -> StepRequest {
        guard let body = request.body, !body.isEmpty else { return request }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: body)
        } catch {
            throw FlowError(.interceptor, "cannot wrap the request body at \(pointer): it is not JSON (\(error.message))")
        }
        var wrapped = try envelope.map { try scope.evaluate($0) } ?? .object([:])
        guard case .object = wrapped else {
            throw FlowError(.interceptor, "the 'wrap' envelope is not an object")
        }
        try Self.place(document, at: pointer.tokens[...], in: &wrapped)
        var request = request
        request.body = wrapped.serializedBytes()
        request.headers.set("Content-Type", "application/json")
        return request
    }

    /// Sets the member at `tokens` (object members only), creating objects on the way.
    private static func place(_ value: JSONValue, at tokens: ArraySlice<String>, in container: inout JSONValue)
        throws(FlowError)
    {
        guard let first = tokens.first else {
            container = value
            return
        }
        guard case .object(var members) = container else {
            throw FlowError(.interceptor, "cannot wrap the request body: the envelope's '\(first)' is inside a non-object")
        }
        var child = members[first] ?? .object([:])
        try place(value, at: tokens.dropFirst(), in: &child)
        members[first] = child
        container = .object(members)
    }
}
