/// A type in the JSON Schema subset flowrun understands.
///
/// Workflow files declare types under `types:`, the run's `inputs:`, a step's
/// `response:` and `request.bodyType`. The subset is `type` (a name or a list
/// of names), `nullable`, `properties`, `required`, `additionalProperties`,
/// `items`, `enum`, `const`, `oneOf`/`anyOf`/`allOf`, `$ref` to a named type,
/// `format`, `minimum`/`maximum` (and their exclusive forms),
/// `minLength`/`maxLength`, `pattern`, `minItems`/`maxItems`, plus the
/// annotations `title`, `description` and `default`. Wherever a schema is
/// expected, a bare string names a type: `items: Transaction` is
/// `items: { $ref: Transaction }`.
///
/// A schema is immutable and shared, hence a final class.
package final class JSONSchema: Sendable {
    /// The JSON Schema type names.
    package enum TypeName: String, Sendable, CaseIterable, Hashable {
        /// `null`.
        case null
        /// `true` or `false`.
        case boolean
        /// A whole number.
        case integer
        /// Any number.
        case number
        /// A string.
        case string
        /// An array.
        case array
        /// An object.
        case object
    }

    /// What an object may hold beyond its declared properties.
    package enum AdditionalProperties: Sendable {
        /// Not stated: validation allows other members, but bindings may only read declared ones.
        case unspecified
        /// `true` or `false`.
        case allowed(Bool)
        /// Other members must match this schema.
        case schema(JSONSchema)
    }

    /// Where the schema is written.
    package let location: SourceLocation
    /// The allowed types; `nil` allows any.
    package let types: Set<TypeName>?
    /// Declared properties, in file order.
    package let properties: [(name: String, schema: JSONSchema)]
    /// Names of required properties.
    package let required: [Located<String>]
    /// ``required`` without the locations, for validation, which checks every one in every value.
    let requiredNames: [String]
    /// What other members may hold.
    package let additionalProperties: AdditionalProperties
    /// The schema of array elements.
    package let items: JSONSchema?
    /// The allowed values.
    package let enumValues: [JSONValue]?
    /// The one allowed value.
    package let constValue: JSONValue?
    /// Schemas of which exactly one must match.
    package let oneOf: [JSONSchema]
    /// Schemas of which at least one must match.
    package let anyOf: [JSONSchema]
    /// Schemas that must all match.
    package let allOf: [JSONSchema]
    /// A reference to a named type under `types:`.
    package let ref: Located<String>?
    /// A format hint such as `password`, `date-time`, `email` or `uuid`.
    package let format: String?
    /// The inclusive lower bound of a number.
    package let minimum: Double?
    /// The inclusive upper bound of a number.
    package let maximum: Double?
    /// The exclusive lower bound of a number.
    package let exclusiveMinimum: Double?
    /// The exclusive upper bound of a number.
    package let exclusiveMaximum: Double?
    /// The minimum length of a string, in Unicode scalars.
    package let minLength: Int?
    /// The maximum length of a string, in Unicode scalars.
    package let maxLength: Int?
    /// A regular expression a string must match.
    package let pattern: String?
    /// The minimum number of array elements.
    package let minItems: Int?
    /// The maximum number of array elements.
    package let maxItems: Int?
    /// The default value, used for absent inputs.
    package let defaultValue: JSONValue?
    /// A description for readers.
    package let description: String?
    /// ``types`` as a bit set (bit `n` for the `n`th ``TypeName`` case), so validation tests a type
    /// without hashing; 0 when `types` is `nil`.
    let typeMask: UInt8

    /// Creates a schema; every constraint is optional.
    package init(
        location: SourceLocation,
        types: Set<TypeName>? = nil,
        properties: [(name: String, schema: JSONSchema)] = [],
        required: [Located<String>] = [],
        additionalProperties: AdditionalProperties = .unspecified,
        items: JSONSchema? = nil,
        enumValues: [JSONValue]? = nil,
        constValue: JSONValue? = nil,
        oneOf: [JSONSchema] = [],
        anyOf: [JSONSchema] = [],
        allOf: [JSONSchema] = [],
        ref: Located<String>? = nil,
        format: String? = nil,
        minimum: Double? = nil,
        maximum: Double? = nil,
        exclusiveMinimum: Double? = nil,
        exclusiveMaximum: Double? = nil,
        minLength: Int? = nil,
        maxLength: Int? = nil,
        pattern: String? = nil,
        minItems: Int? = nil,
        maxItems: Int? = nil,
        defaultValue: JSONValue? = nil,
        description: String? = nil
    ) {
        self.location = location
        self.types = types
        self.properties = properties
        self.required = required
        self.requiredNames = required.map(\.value)
        self.additionalProperties = additionalProperties
        self.items = items
        self.enumValues = enumValues
        self.constValue = constValue
        self.oneOf = oneOf
        self.anyOf = anyOf
        self.allOf = allOf
        self.ref = ref
        self.format = format
        self.minimum = minimum
        self.maximum = maximum
        self.exclusiveMinimum = exclusiveMinimum
        self.exclusiveMaximum = exclusiveMaximum
        self.minLength = minLength
        self.maxLength = maxLength
        self.pattern = pattern
        self.minItems = minItems
        self.maxItems = maxItems
        self.defaultValue = defaultValue
        self.description = description
        self.typeMask = types.map { $0.reduce(0) { $0 | $1.bit } } ?? 0
    }

    /// A schema that allows any value, located at `location`.
    /// - Parameter location: Where the value it types was written.
    /// - Returns: The permissive schema.
    package static func any(at location: SourceLocation) -> JSONSchema {
        JSONSchema(location: location)
    }

    /// The declared property named `name`, if any.
    /// - Parameter name: The property name.
    /// - Returns: Its schema.
    package func property(_ name: String) -> JSONSchema? {
        properties.first { $0.name == name }?.schema
    }

    /// Whether the value is a secret to redact: `format: password`.
    package var isSecret: Bool { format == "password" }
}

extension JSONSchema.TypeName {
    /// The type's bit in ``JSONSchema/typeMask``.
    var bit: UInt8 {
        switch self {
        case .null: 1 << 0
        case .boolean: 1 << 1
        case .integer: 1 << 2
        case .number: 1 << 3
        case .string: 1 << 4
        case .array: 1 << 5
        case .object: 1 << 6
        }
    }
}
