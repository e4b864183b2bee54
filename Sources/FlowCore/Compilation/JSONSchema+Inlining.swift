/// Copying a type out of the workflow that declares it.
extension JSONSchema {
    /// This schema with every `$ref` replaced by the type it names in `named`, so that it means the same in a
    /// workflow that declares other types (a called workflow's output, read by its caller). A reference that
    /// does not resolve, or one nested deeper than `depth` (a recursive type), becomes a schema that allows
    /// anything, which type-checks nothing.
    func inliningReferences(_ named: [String: JSONSchema], depth: Int = 8) -> JSONSchema {
        guard depth > 0 else { return JSONSchema(location: location) }
        if let ref {
            guard let target = named[ref.value] else { return JSONSchema(location: location) }
            return target.inliningReferences(named, depth: depth - 1)
        }
        func inline(_ schema: JSONSchema) -> JSONSchema { schema.inliningReferences(named, depth: depth - 1) }
        let additional: AdditionalProperties =
            if case .schema(let schema) = additionalProperties { .schema(inline(schema)) } else { additionalProperties }
        return JSONSchema(
            location: location, types: types, properties: properties.map { ($0.name, inline($0.schema)) },
            required: required, additionalProperties: additional, items: items.map(inline), enumValues: enumValues,
            constValue: constValue, oneOf: oneOf.map(inline), anyOf: anyOf.map(inline), allOf: allOf.map(inline),
            format: format, minimum: minimum, maximum: maximum, exclusiveMinimum: exclusiveMinimum,
            exclusiveMaximum: exclusiveMaximum, minLength: minLength, maxLength: maxLength, pattern: pattern,
            minItems: minItems, maxItems: maxItems, defaultValue: defaultValue, description: description)
    }
}
