extension JSONValue {
    /// The JSON value a YAML node denotes, with scalars resolved by the YAML 1.2 core schema.
    ///
    /// Mapping keys become strings by their text (`200:` is the key `"200"`);
    /// no runtime expressions are evaluated.
    /// - Parameter node: The node, as ``YAMLLoader`` returns it.
    public init(yaml node: YAMLNode) {
        switch node.content {
        case .scalar(let scalar):
            switch scalar.value {
            case .null: self = .null
            case .bool(let value): self = .bool(value)
            case .int(let value): self = .int(value)
            case .double(let value): self = .double(value)
            case .string(let value): self = .string(value)
            }
        case .sequence(let elements):
            self = .array(elements.map(JSONValue.init(yaml:)))
        case .mapping(let pairs):
            var object: [String: JSONValue] = [:]
            object.reserveCapacity(pairs.count)
            for pair in pairs { object[pair.key.scalar?.text ?? ""] = JSONValue(yaml: pair.value) }
            self = .object(object)
        }
    }
}
