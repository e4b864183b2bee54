extension SchemaNavigator {
    /// Why a literal cannot be sent as a parameter of type `schema`, or `nil` when it can.
    ///
    /// Every value is sent as text, so `version: 2` fits a string parameter as "2"; a list parameter also takes
    /// one of its elements. A mapping, or a list where no list goes, is not judged here: where the value goes (a
    /// path segment, a header) reports it.
    /// - Parameters:
    ///   - value: The literal.
    ///   - schema: The parameter's type.
    ///   - formats: How `format` keywords are checked.
    func parameterLiteralFailure(
        _ value: JSONValue, against schema: JSONSchema, formats: ValidationSettings.FormatMode
    ) -> ValidationFailure? {
        let expected = resolve(schema) ?? schema
        let itemType = expected.types == [.array] ? expected.items.map { resolve($0) ?? $0 } : nil
        if case .object = value { return nil }
        if case .array = value, itemType == nil { return nil }
        func asSent(_ value: JSONValue, for schema: JSONSchema?) -> JSONValue {
            guard let types = schema?.types, types.contains(.string), !value.isContainer, value != .null,
                let own = JSONSchema.TypeName(rawValue: value.typeName),
                !types.contains(own), !(own == .integer && types.contains(.number))
            else { return value }
            return .string(value.interpolationText)
        }
        let checked: JSONValue =
            switch value {
            case .array(let elements): .array(elements.map { asSent($0, for: itemType) })
            case _ where itemType != nil: .array([asSent(value, for: itemType)])
            default: asSent(value, for: expected)
            }
        return JSONSchemaValidator(types: types, formats: formats).validate(checked, against: expected, maxFailures: 1).first
    }
}
