/// A JSON value: what inputs, variables, request bodies, response bodies and outputs hold at run time.
///
/// Objects keep their keys in a dictionary; encoders sort the keys, so output
/// is deterministic. Integers and floating-point numbers stay apart so that an
/// `id: 42` is not printed as `42.0`, and an integer too large for 64 bits
/// keeps its digits, so an id such as `123456789012345678901234567890` passes
/// through bindings unchanged rather than rounded to a `Double`.
public enum JSONValue: Sendable, Hashable {
    /// `null`.
    case null
    /// `true` or `false`.
    case bool(Bool)
    /// A number without a fraction or exponent that fits in 64 bits.
    case int(Int)
    /// A number without a fraction or exponent that does not fit in 64 bits, as its decimal digits (after a `-`
    /// when negative), exactly as the JSON text wrote it.
    ///
    /// ``JSONValue/init(parsing:maxDepth:)`` makes one only outside the range of ``int(_:)``, so each integer
    /// has one representation. It serializes to its digits, validates as an `integer`, and compares with
    /// bounds and other numbers exactly.
    case bigInteger(String)
    /// Any other number.
    case double(Double)
    /// A string.
    case string(String)
    /// An array.
    case array([JSONValue])
    /// An object.
    case object([String: JSONValue])

    /// The JSON Schema type name of the value: `null`, `boolean`, `integer`, `number`, `string`, `array` or `object`.
    public var typeName: String {
        switch self {
        case .null: "null"
        case .bool: "boolean"
        case .int, .bigInteger: "integer"
        case .double(let d): d.rounded() == d && abs(d) < 9.0e15 ? "integer" : "number"
        case .string: "string"
        case .array: "array"
        case .object: "object"
        }
    }

    /// ``typeName`` as a message says it: `an object`, `a string`, `null`.
    var typeNameWithArticle: String {
        switch self {
        case .null: "null"
        case .int, .bigInteger, .array, .object: "an \(typeName)"
        case .double: typeName == "integer" ? "an integer" : "a number"
        case .bool, .string: "a \(typeName)"
        }
    }

    /// Whether the value is an array or an object, which have no text form in a URL or header.
    public var isContainer: Bool {
        switch self {
        case .array, .object: true
        default: false
        }
    }

    /// The string, when the value is one.
    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }

    /// The number as a `Double`, when the value is one; a ``bigInteger(_:)`` is rounded to the nearest `Double`.
    public var doubleValue: Double? {
        switch self {
        case .int(let i): Double(i)
        case .bigInteger(let digits): Double(digits)
        case .double(let d): d
        default: nil
        }
    }

    /// The object's members, when the value is an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let o) = self { return o }
        return nil
    }

    /// The elements, when the value is an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let a) = self { return a }
        return nil
    }
}
