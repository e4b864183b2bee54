/// A response with its body decoded by ``ResponseDecoding``: by its content type, or as `parse:` says.
///
/// A class, and immutable: a decoded response is read by the attempt that decoded it, its outputs and `set`,
/// retry and loop conditions, the step's result and a `catch` rule's scope, and each of those held a copy of
/// its headers, body and reading (several reference counts, and an outlined copy of the body's enum, per
/// copy). Shared, it is one reference count, and since nothing changes it once made, sharing it is as safe
/// as copying it.
final class DecodedResponse: Sendable, Codable {
    let status: Int
    let headers: HeaderFields
    let body: JSONValue
    /// How the body was read, for messages; `nil` for a registered parser's value. Not recorded in a run's
    /// events: nothing the run decides reads it.
    let reading: BodyReading?
    /// The URL of the request this response answers, as the step built it: what `$url` reads. `nil` for a
    /// response no request of a step led to.
    let url: String?

    init(status: Int, headers: HeaderFields, body: JSONValue, reading: BodyReading? = nil, url: String? = nil) {
        self.status = status
        self.headers = headers
        self.body = body
        self.reading = reading
        self.url = url
    }

    private enum CodingKeys: String, CodingKey {
        case status, headers, body, url
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        status = try container.decode(Int.self, forKey: .status)
        headers = try container.decode(HeaderFields.self, forKey: .headers)
        body = try container.decode(JSONValue.self, forKey: .body)
        url = try container.decodeIfPresent(String.self, forKey: .url)
        reading = nil
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(headers, forKey: .headers)
        try container.encode(body, forKey: .body)
        try container.encodeIfPresent(url, forKey: .url)
    }
}
