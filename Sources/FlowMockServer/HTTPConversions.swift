import FlowCore
import HTTPTypes
import Hummingbird
import HummingbirdCore
import NIOCore

extension HeaderFields {
    /// The fields of a request Hummingbird received, in order, with their names as sent.
    init(_ fields: HTTPFields) {
        self.init(fields.map { Field(name: $0.name.rawName, value: $0.value) })
    }
}

extension Response {
    /// A stub's response as Hummingbird sends it.
    ///
    /// `Content-Length` is always the body's and `Transfer-Encoding` is left out, whatever the stub says, so a
    /// stub cannot break the connection's framing; a header name that HTTP does not allow is left out too.
    init(_ response: StepResponse) {
        var headers = HTTPFields()
        for field in response.headers {
            guard let name = HTTPField.Name(field.name), name != .contentLength, name != .transferEncoding else {
                continue
            }
            headers.append(HTTPField(name: name, value: field.value))
        }
        self.init(
            status: HTTPResponse.Status(code: response.status), headers: headers,
            body: ResponseBody(byteBuffer: ByteBuffer(bytes: response.body)))
    }
}
