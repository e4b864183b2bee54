extension SchemaNavigator {
    /// The type of a value that has type `first` or type `second`: one of them when they are the same type,
    /// else `anyOf` both, which also states the union of their `type`s when both state theirs, so that
    /// placement checks and messages still know it ("a string or null").
    /// - Parameters:
    ///   - first: One type.
    ///   - second: The other.
    ///   - location: Where the union is written, for messages about it.
    /// - Returns: The union.
    func union(_ first: JSONSchema, _ second: JSONSchema, at location: SourceLocation) -> JSONSchema {
        if first === second { return first }
        if let ref = first.ref?.value, ref == second.ref?.value { return first }
        var types: Set<JSONSchema.TypeName>?
        if let firstTypes = resolve(first)?.types, let secondTypes = resolve(second)?.types {
            if isBare(first) && isBare(second) && firstTypes == secondTypes { return first }
            types = firstTypes.union(secondTypes)
        }
        return JSONSchema(location: location, types: types, anyOf: [first, second])
    }

    /// Whether `schema` states a `type` and nothing else a value must satisfy, so two such schemas with the
    /// same types accept the same values.
    private func isBare(_ schema: JSONSchema) -> Bool {
        schema.ref == nil && schema.types != nil && schema.properties.isEmpty && schema.required.isEmpty
            && schema.items == nil && schema.enumValues == nil && schema.constValue == nil && schema.oneOf.isEmpty
            && schema.anyOf.isEmpty && schema.allOf.isEmpty && schema.format == nil && schema.minimum == nil
            && schema.maximum == nil && schema.exclusiveMinimum == nil && schema.exclusiveMaximum == nil
            && schema.minLength == nil && schema.maxLength == nil && schema.pattern == nil && schema.minItems == nil
            && schema.maxItems == nil
            && { if case .unspecified = schema.additionalProperties { true } else { false } }()
    }
}
