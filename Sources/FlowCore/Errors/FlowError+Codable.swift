/// An error encodes as its code's name, its message and the facts about where it happened; the
/// ``FlowError/underlyingError`` is a foreign error of any type and is left out (it decodes as `nil`).
extension FlowError: Codable {
    private enum CodingKeys: String, CodingKey {
        case code, message, location, stepID, attempt, request, status, responseExcerpt
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            Code(try container.decode(String.self, forKey: .code)), try container.decode(String.self, forKey: .message),
            at: try container.decodeIfPresent(SourceLocation.self, forKey: .location))
        stepID = try container.decodeIfPresent(String.self, forKey: .stepID)
        attempt = try container.decodeIfPresent(Int.self, forKey: .attempt)
        request = try container.decodeIfPresent(String.self, forKey: .request)
        status = try container.decodeIfPresent(Int.self, forKey: .status)
        responseExcerpt = try container.decodeIfPresent(String.self, forKey: .responseExcerpt)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(code.name, forKey: .code)
        try container.encode(message, forKey: .message)
        try container.encodeIfPresent(location, forKey: .location)
        try container.encodeIfPresent(stepID, forKey: .stepID)
        try container.encodeIfPresent(attempt, forKey: .attempt)
        try container.encodeIfPresent(request, forKey: .request)
        try container.encodeIfPresent(status, forKey: .status)
        try container.encodeIfPresent(responseExcerpt, forKey: .responseExcerpt)
    }
}
