/// Whether a value matches a schema, answered without a ``ValidationWalk``: the validator's first question for
/// every value, since almost every value matches.
///
/// It keeps no position and builds nothing: a recursion over the value and the schema that stops at the first
/// keyword that does not hold. A walk costs its own state (the types, the pattern cache and the root retained, a
/// path, a trail of references) and copies each member it descends into; for a response of a few members that
/// was most of the time validation took.
///
/// "Yes" is exact: it checks every keyword the walk checks, with the same rules. "No" means "ask the walk": it is
/// also the answer where this stops short of the walk's bookkeeping — a second `$ref` followed at one position
/// (the walk tells a cycle from a chain of names there) and values nested deeper than ``ValidationWalk/maxDepth``
/// — so only the walk ever reports a failure, with its pointer and message.
extension JSONSchemaValidator {
    /// Whether `value` matches `schema`; `false` when it does not, or when only a walk can tell.
    func matches(_ value: JSONValue, _ schema: JSONSchema) -> Bool {
        matches(value, schema, depth: 0, followedHere: false)
    }

    /// - Parameters:
    ///   - depth: How many members and elements deep `value` is.
    ///   - followedHere: Whether a `$ref` was followed at this position already.
    private func matches(_ value: JSONValue, _ schema: JSONSchema, depth: Int, followedHere: Bool) -> Bool {
        if schema.types != nil, !ValidationWalk.value(value, hasTypeIn: schema.typeMask) { return false }
        if let ref = schema.ref {
            guard !followedHere, let target = types.value(forFewKeys: ref.value),
                matches(value, target, depth: depth, followedHere: true)
            else { return false }
        }
        if let allowed = schema.enumValues, !allowed.contains(where: { $0.isSchemaEqual(to: value) }) { return false }
        if let constant = schema.constValue, !constant.isSchemaEqual(to: value) { return false }
        switch value {
        case .string(let string):
            guard stringMatches(string, schema) else { return false }
        case .int, .bigInteger, .double:
            guard numberMatches(value, schema) else { return false }
        case .array(let elements):
            if let minItems = schema.minItems, elements.count < minItems { return false }
            if let maxItems = schema.maxItems, elements.count > maxItems { return false }
            if let items = schema.items, !elements.isEmpty {
                guard depth < ValidationWalk.maxDepth else { return false }
                for element in elements where !matches(element, items, depth: depth + 1, followedHere: false) {
                    return false
                }
            }
        case .object(let members):
            guard objectMatches(members, schema, depth: depth) else { return false }
        case .null, .bool:
            break
        }
        for branch in schema.allOf where !matches(value, branch, depth: depth, followedHere: followedHere) {
            return false
        }
        if !schema.anyOf.isEmpty,
            !schema.anyOf.contains(where: { matches(value, $0, depth: depth, followedHere: followedHere) })
        {
            return false
        }
        if !schema.oneOf.isEmpty {
            var matchCount = 0
            for branch in schema.oneOf where matches(value, branch, depth: depth, followedHere: followedHere) {
                matchCount += 1
                if matchCount == 2 { return false }
            }
            if matchCount == 0 { return false }
        }
        return true
    }

    /// `minLength`, `maxLength`, `pattern` and, when enforced, `format`.
    private func stringMatches(_ string: String, _ schema: JSONSchema) -> Bool {
        if let minLength = schema.minLength, !ValidationWalk.isLongEnough(string, minLength) { return false }
        if let maxLength = schema.maxLength, !ValidationWalk.isShortEnough(string, maxLength) { return false }
        if let pattern = schema.pattern {
            guard case .compiled(let shared) = patterns.entry(for: pattern), string.contains(shared.regex) else {
                return false
            }
        }
        if formats == .enforce, let format = schema.format, FormatChecker.check(string, format: format) == false {
            return false
        }
        return true
    }

    /// `minimum`, `maximum`, `exclusiveMinimum` and `exclusiveMaximum`.
    private func numberMatches(_ value: JSONValue, _ schema: JSONSchema) -> Bool {
        if let minimum = schema.minimum, value.compare(to: minimum) == .less { return false }
        if let maximum = schema.maximum, value.compare(to: maximum) == .greater { return false }
        if let bound = schema.exclusiveMinimum, value.compare(to: bound) != .greater { return false }
        if let bound = schema.exclusiveMaximum, value.compare(to: bound) != .less { return false }
        return true
    }

    /// `required`, `properties` and `additionalProperties`.
    private func objectMatches(_ members: [String: JSONValue], _ schema: JSONSchema, depth: Int) -> Bool {
        for name in schema.requiredNames where members.value(forFewKeys: name) == nil { return false }
        var declaredMembers = 0
        for property in schema.properties {
            guard let member = members.value(forFewKeys: property.name) else { continue }
            declaredMembers += 1
            guard depth < ValidationWalk.maxDepth, matches(member, property.schema, depth: depth + 1, followedHere: false)
            else { return false }
        }
        guard declaredMembers < members.count else { return true }
        switch schema.additionalProperties {
        case .unspecified, .allowed(true):
            return true
        case .allowed(false):
            return false
        case .schema(let additional):
            guard depth < ValidationWalk.maxDepth else { return false }
            for (name, member) in members where schema.property(name) == nil {
                guard matches(member, additional, depth: depth + 1, followedHere: false) else { return false }
            }
            return true
        }
    }
}
