/// Replaces a JSON response body by the value at a pointer: unwraps `{ "data": … }` envelopes.
///
/// Only success responses (2xx) are unwrapped; error bodies keep their shape so
/// the step's error type still applies.
struct UnwrapInterceptor: ResponseRewritingInterceptor {
    let pointer: JSONPointer

    func rewrite(_ response: StepResponse, context: StepContext) throws -> StepResponse {
        var response = response
        guard (200..<300).contains(response.status), !response.body.isEmpty else { return response }
        let document: JSONValue
        do {
            document = try JSONValue(parsing: response.body)
        } catch {
            throw FlowError(.decode, "cannot unwrap \(pointer): the response body is not JSON (\(error.message))")
        }
        guard let inner = pointer.resolve(in: document) else {
            throw FlowError(.decode, "cannot unwrap \(pointer): the response body has no \(pointer)")
        }
        response.body = inner.serializedBytes()
        return response
    }
}
