/// The wording of failure messages, and the redaction of secrets in them.
///
/// Nothing here runs unless a failure is reported, so it may allocate freely.
extension ValidationWalk {
    /// How many characters of a string a message quotes.
    static let quotedLength = 40

    /// How many values of an `enum`, or names of declared properties, a message lists.
    static let listedCount = 10

    // MARK: Secrets

    /// Whether the value at ``path`` is, or lies inside, a value that some applicable schema marks as secret.
    ///
    /// A position can be typed by several schemas at once: `$ref`, `allOf`, `anyOf` and `oneOf` all apply at
    /// the same position, and a failing branch must not quote a password that a sibling branch declares. So
    /// the lookup walks the path from the root schema, keeping at each step every schema that applies there.
    func isSecretPosition() -> Bool {
        var current: [JSONSchema] = []
        var seen: Set<ObjectIdentifier> = []
        addApplicable(root, to: &current, seen: &seen)
        if current.contains(where: \.isSecret) { return true }
        for token in path {
            var next: [JSONSchema] = []
            seen = []
            for schema in current {
                switch token {
                case .key(let name):
                    if let property = schema.property(name) {
                        addApplicable(property, to: &next, seen: &seen)
                    } else if case .schema(let additional) = schema.additionalProperties {
                        addApplicable(additional, to: &next, seen: &seen)
                    }
                case .index:
                    if let items = schema.items { addApplicable(items, to: &next, seen: &seen) }
                }
            }
            if next.contains(where: \.isSecret) { return true }
            current = next
        }
        return false
    }

    /// Adds `schema` and every schema it applies at the same position through `$ref` and the combinators.
    func addApplicable(_ schema: JSONSchema, to schemas: inout [JSONSchema], seen: inout Set<ObjectIdentifier>) {
        guard seen.insert(ObjectIdentifier(schema)).inserted else { return }
        schemas.append(schema)
        if let ref = schema.ref, let target = types[ref.value] { addApplicable(target, to: &schemas, seen: &seen) }
        for branch in schema.allOf { addApplicable(branch, to: &schemas, seen: &seen) }
        for branch in schema.anyOf { addApplicable(branch, to: &schemas, seen: &seen) }
        for branch in schema.oneOf { addApplicable(branch, to: &schemas, seen: &seen) }
    }

    // MARK: Found values

    /// The value as the object of "found ...": `the string "12"`, `the number 3`, `true`, `an object`.
    ///
    /// A secret is described by its type alone: `a string`.
    static func describe(_ value: JSONValue, secret: Bool) -> String {
        switch value {
        case .null: return "null"
        case .bool(let b): return secret ? "a boolean" : String(b)
        case .int(let i): return secret ? "a number" : "the number \(i)"
        case .bigInteger(let digits): return secret ? "a number" : "the number \(digits)"
        case .double(let d): return secret ? "a number" : "the number \(d)"
        case .string(let s): return secret ? "a string" : "the string \(quote(s))"
        case .array(let elements): return "an array of \(items(elements.count))"
        case .object: return "an object"
        }
    }

    /// The value as the subject of a sentence: `the string "12"`, or `the value` for a secret.
    static func subject(_ value: JSONValue, secret: Bool) -> String {
        secret ? "the value" : describe(value, secret: false)
    }

    /// A string in double quotes, with at most ``quotedLength`` characters and JSON escapes for
    /// quotes, backslashes and control characters.
    static func quote(_ string: String) -> String {
        var quoted = "\""
        let shown = string.prefix(quotedLength)
        for scalar in shown.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        if shown.endIndex < string.endIndex { quoted += "…" }
        return quoted + "\""
    }

    // MARK: Schema values

    /// The allowed types: `a string`, `an integer or null`, `a number, a string or null`.
    ///
    /// `null` comes last, so that a nullable type reads as the type it qualifies: `a string or null`.
    static func describe(_ types: Set<JSONSchema.TypeName>) -> String {
        var names = JSONSchema.TypeName.allCases.filter { $0 != .null && types.contains($0) }.map { type in
            switch type {
            case .integer, .array, .object: "an \(type.rawValue)"
            default: "a \(type.rawValue)"
            }
        }
        if types.contains(.null) { names.append("null") }
        guard let last = names.last else { return "no value at all" }
        return names.count == 1 ? last : names.dropLast().joined(separator: ", ") + " or " + last
    }

    /// A value written in the schema, as compact JSON with long strings shortened.
    static func render(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let b): String(b)
        case .int(let i): String(i)
        case .bigInteger(let digits): digits
        case .double(let d): "\(d)"
        case .string(let s): quote(s)
        case .array(let elements): "[" + elements.map(render).joined(separator: ", ") + "]"
        case .object(let members):
            "{" + members.keys.sorted().map { "\(quote($0)): \(render(members[$0]!))" }.joined(separator: ", ") + "}"
        }
    }

    /// The allowed values of an `enum`: `"a", "b", "c"`, the first ``listedCount`` of them.
    static func render(_ values: [JSONValue]) -> String {
        let listed = values.prefix(listedCount).map(render).joined(separator: ", ")
        return values.count > listedCount ? listed + ", … (\(values.count) in all)" : listed
    }

    /// A bound: `0` rather than `0.0` when it is a whole number.
    static func render(_ number: Double) -> String {
        number.rounded() == number && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
    }

    /// `1 item`, `3 items`.
    static func items(_ count: Int) -> String {
        count == 1 ? "1 item" : "\(count) items"
    }

    /// `1 character`, `3 characters`: a string's length in Unicode scalars.
    static func characters(_ count: Int) -> String {
        count == 1 ? "1 character" : "\(count) characters"
    }

    /// The properties a schema declares, for the message about an undeclared one.
    static func declaredNames(_ schema: JSONSchema) -> String {
        let names = schema.properties.map(\.name)
        guard !names.isEmpty else { return "the type declares no properties" }
        let listed = names.prefix(listedCount).map { "'\($0)'" }.joined(separator: ", ")
        return "the declared properties are " + listed + (names.count > listedCount ? ", …" : "")
    }
}
