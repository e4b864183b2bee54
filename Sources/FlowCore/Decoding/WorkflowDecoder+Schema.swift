/// Decoding of the JSON Schema subset used by `types`, `inputs`, `response` and `bodyType`.
extension WorkflowDecoder {
    static let schemaKeys = [
        "type", "nullable", "properties", "required", "additionalProperties", "items", "enum", "const", "oneOf",
        "anyOf", "allOf", "$ref", "format", "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum",
        "minLength", "maxLength", "pattern", "minItems", "maxItems", "title", "description", "default",
        "examples", "deprecated", "readOnly", "writeOnly",
    ]

    /// Decodes a schema; a bare string names a type.
    mutating func schema(_ node: YAMLNode) -> JSONSchema {
        if let scalar = node.scalar, case .string(let text) = scalar.value {
            return JSONSchema(location: node.location, ref: Located(Self.typeName(fromRef: text), at: node.location))
        }
        guard let fields = reader(node, "a type", Self.schemaKeys) else { return .any(at: node.location) }

        var types: Set<JSONSchema.TypeName>?
        if let typeNode = fields["type"] {
            types = []
            for element in typeNode.sequence ?? [typeNode] {
                guard let text = string(element, "'type'") else { continue }
                if let type = JSONSchema.TypeName(rawValue: text.value) {
                    types?.insert(type)
                } else {
                    report(.invalidValue,
                           "unknown type '\(text.value)'\(Suggestion.didYouMean(text.value, in: JSONSchema.TypeName.allCases.map(\.rawValue))); JSON Schema types are null, boolean, integer, number, string, array and object",
                           element)
                }
            }
        }
        let nullable = fields["nullable"].flatMap { bool($0, "'nullable'") } ?? false
        if nullable { types?.insert(.null) }
        var properties: [(name: String, schema: JSONSchema)] = []
        if let node = fields["properties"] {
            properties = entries(node, "'properties'").map { ($0.name.value, schema($0.value)) }
        }
        var required: [Located<String>] = []
        if let node = fields["required"] {
            if let elements = node.sequence {
                required = elements.compactMap { string($0, "an entry of 'required'") }
            } else {
                report(.typeMismatch, "expected 'required' to be a sequence of property names, found \(node.kindDescription)", node)
            }
        }
        var additional = JSONSchema.AdditionalProperties.unspecified
        if let node = fields["additionalProperties"] {
            if case .bool(let allowed)? = node.scalar?.value {
                additional = .allowed(allowed)
            } else {
                additional = .schema(schema(node))
            }
        }
        let value: (String) -> JSONValue? = { key in fields[key].map(JSONValue.init(yaml:)) }
        var enumValues: [JSONValue]?
        if let node = fields["enum"] {
            if case .array(let values) = JSONValue(yaml: node) {
                enumValues = values
            } else {
                report(.typeMismatch, "expected 'enum' to be a sequence of values, found \(node.kindDescription)", node)
            }
        }
        let decoded = JSONSchema(
            location: node.location,
            types: types,
            properties: properties,
            required: required,
            additionalProperties: additional,
            items: fields["items"].map { schema($0) },
            enumValues: enumValues,
            constValue: value("const"),
            oneOf: schemaList(fields["oneOf"], "'oneOf'"),
            anyOf: schemaList(fields["anyOf"], "'anyOf'"),
            allOf: schemaList(fields["allOf"], "'allOf'"),
            ref: fields["$ref"].flatMap { string($0, "'$ref'") }.map {
                Located(Self.typeName(fromRef: $0.value), at: $0.location)
            },
            format: fields["format"].flatMap { string($0, "'format'")?.value },
            minimum: fields["minimum"].flatMap { number($0, "'minimum'") },
            maximum: fields["maximum"].flatMap { number($0, "'maximum'") },
            exclusiveMinimum: fields["exclusiveMinimum"].flatMap { number($0, "'exclusiveMinimum'") },
            exclusiveMaximum: fields["exclusiveMaximum"].flatMap { number($0, "'exclusiveMaximum'") },
            minLength: fields["minLength"].flatMap { count($0, "'minLength'") },
            maxLength: fields["maxLength"].flatMap { count($0, "'maxLength'") },
            pattern: fields["pattern"].flatMap { pattern($0) },
            minItems: fields["minItems"].flatMap { count($0, "'minItems'") },
            maxItems: fields["maxItems"].flatMap { count($0, "'maxItems'") },
            defaultValue: value("default"),
            description: fields["description"].flatMap { string($0, "'description'")?.value }
        )
        // `{ $ref: User, nullable: true }` has no `type` to add `null` to: it means "a User or null".
        if nullable && types == nil {
            return JSONSchema(
                location: node.location, anyOf: [decoded, JSONSchema(location: node.location, types: [.null])])
        }
        return decoded
    }

    /// Decodes the `validation:` section.
    mutating func validationSettings(_ node: YAMLNode) -> ValidationSettings {
        var settings = ValidationSettings()
        guard let fields = reader(node, "'validation'", ["formats"]), let formats = fields["formats"],
            let text = string(formats, "'formats'")
        else { return settings }
        if let mode = ValidationSettings.FormatMode(rawValue: text.value) {
            settings.formats = mode
        } else {
            report(.invalidValue, "unknown value '\(text.value)' for 'formats'; expected hint or enforce",
                   formats)
        }
        return settings
    }

    /// Reads a length or item count: an integer ≥ 0, which JSON Schema also lets a schema write with a zero
    /// fraction (`minLength: 2.0`).
    private mutating func count(_ node: YAMLNode, _ what: String) -> Int? {
        if case .double(let value)? = node.scalar?.value, value >= 0, value.rounded() == value,
            value < 0x1p63
        {
            return Int(value)
        }
        return int(node, what, in: 0...Int.max)
    }

    /// Reads a `pattern` and compiles it now, so that an expression that cannot compile is an error of the file
    /// (with its line and column) rather than a failure of every value checked against it at run time.
    private mutating func pattern(_ node: YAMLNode) -> String? {
        guard let text = string(node, "'pattern'")?.value else { return nil }
        if case .invalid(let reason) = PatternCache.compile(text) {
            report(.invalidValue,
                   "the pattern '\(text)' is not a valid regular expression: \(reason) (patterns use ECMA-262 "
                       + "syntax as Swift's Regex reads it; see the JSON Schema subset in docs/workflow-format.md)",
                   node)
            return nil
        }
        return text
    }

    private mutating func schemaList(_ node: YAMLNode?, _ what: String) -> [JSONSchema] {
        guard let node else { return [] }
        guard let elements = node.sequence, !elements.isEmpty else {
            report(.typeMismatch, "expected \(what) to be a non-empty sequence of types, found \(node.kindDescription)", node)
            return []
        }
        return elements.map { schema($0) }
    }

    /// `User`, `#/types/User` and `#/components/schemas/User` all name the type `User`.
    static func typeName(fromRef text: String) -> String {
        for prefix in ["#/types/", "#/components/schemas/"] where text.hasPrefix(prefix) {
            return String(text.dropFirst(prefix.count))
        }
        return text
    }
}
