/// Checks of the declared types: every `$ref` resolves, `required` names declared properties, inputs are an object.
extension CompilationSession {
    mutating func checkSchemas() {
        // An OpenAPI document's schemas follow its rules (a `required` name need not be a declared property);
        // its loader only hands over references that resolve.
        for type in workflow.types where !type.imported { checkSchema(type.schema) }
        if let inputs = workflow.inputs {
            checkSchema(inputs)
            let resolved = navigator.resolve(inputs) ?? inputs
            if let types = resolved.types, !types.contains(.object) {
                error(.typeMismatch, "'inputs' describes the run's named inputs, so its type is 'object'",
                      at: inputs.location)
            }
        }
        for step in workflow.steps {
            for response in step.responses { checkSchema(response.schema) }
            if let bodyType = step.request.bodyType { checkSchema(bodyType) }
        }
    }

    private mutating func checkSchema(_ schema: JSONSchema) {
        if let ref = schema.ref {
            usedTypes.insert(ref.value)
            if navigator.types[ref.value] == nil {
                // `items: string` names a declared type; the JSON type is `{ type: string }`.
                let hint = JSONSchema.TypeName(rawValue: ref.value) != nil
                    ? "; a bare string names a type declared under 'types': for the JSON type, write "
                        + "'{ type: \(ref.value) }'"
                    : navigator.types.isEmpty
                        ? "; the workflow declares no types"
                        : Suggestion.didYouMean(ref.value, in: navigator.types.keys)
                error(.unknownReference, "unknown type '\(ref.value)'\(hint)", at: ref.location)
            }
        }
        let declared = Set(schema.properties.map(\.name))
        for name in schema.required where !declared.contains(name.value) && !schema.properties.isEmpty {
            error(.unknownReference,
                  "required property '\(name.value)' is not declared under 'properties'\(Suggestion.didYouMean(name.value, in: declared))",
                  at: name.location)
        }
        if let min = schema.minLength, let max = schema.maxLength, min > max {
            error(.invalidValue, "minLength (\(min)) is greater than maxLength (\(max))", at: schema.location)
        }
        if let min = schema.minimum, let max = schema.maximum, min > max {
            error(.invalidValue, "minimum (\(min)) is greater than maximum (\(max))", at: schema.location)
        }
        for property in schema.properties { checkSchema(property.schema) }
        if let items = schema.items { checkSchema(items) }
        if case .schema(let other) = schema.additionalProperties { checkSchema(other) }
        for branch in schema.oneOf + schema.anyOf + schema.allOf { checkSchema(branch) }
    }
}
