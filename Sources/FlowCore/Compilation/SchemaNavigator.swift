/// Follows `$ref`s and JSON pointers through the schemas of a workflow, for type-checking bindings.
///
/// A binding such as `$response.body#/account/id` is checked by walking the
/// pointer through the declared type: object members by name, array elements
/// by index. Where a type says nothing (no `type`, no `properties`), anything
/// may be read and the result is unknown (`nil`).
struct SchemaNavigator {
    /// The named types by name.
    let types: [String: JSONSchema]

    /// The schema with `$ref`s followed, or `nil` when a reference is unresolved (reported elsewhere).
    func resolve(_ schema: JSONSchema) -> JSONSchema? {
        var current = schema
        var seen = 0
        while let ref = current.ref {
            guard let target = types[ref.value], seen < 32 else { return nil }
            current = target
            seen += 1
        }
        return current
    }

    /// A description of the schema for messages: "type 'User'", "an object", "a string or null".
    func describe(_ schema: JSONSchema) -> String {
        if let ref = schema.ref { return "type '\(ref.value)'" }
        guard let types = schema.types, !types.isEmpty else { return "a value of any type" }
        let names = JSONSchema.TypeName.allCases.filter(types.contains).map { type -> String in
            switch type {
            case .object, .array, .integer: "an \(type.rawValue)"
            case .null: "null"
            default: "a \(type.rawValue)"
            }
        }
        return names.joined(separator: " or ")
    }

    /// The outcome of walking a pointer.
    enum Walk {
        /// The pointer reaches a value of this type; `nil` when the type is unknown.
        case found(JSONSchema?)
        /// The pointer reads something the type does not have.
        case missing(message: String, tokenIndex: Int)
    }

    /// Walks `tokens` through `schema`.
    /// - Parameters:
    ///   - tokens: The pointer's reference tokens.
    ///   - schema: The type of the value the pointer is applied to.
    /// - Returns: The type reached, or why the pointer cannot reach anything.
    func walk(_ tokens: [String], in schema: JSONSchema?) -> Walk {
        var current = schema
        for (index, token) in tokens.enumerated() {
            guard let here = current, let resolved = resolve(here) else { return .found(nil) }
            switch step(token, in: resolved, label: describe(here)) {
            case .success(let next): current = next
            case .failure(let failure): return .missing(message: failure.message, tokenIndex: index)
            }
        }
        return .found(current)
    }

    private struct StepFailure: Error { var message: String }

    /// One pointer token through one (resolved) schema.
    private func step(_ token: String, in schema: JSONSchema, label: String) -> Result<JSONSchema?, StepFailure> {
        let branches = schema.oneOf + schema.anyOf + schema.allOf
        if !branches.isEmpty {
            // The member may live in any branch; the first branch that has it gives its type.
            var messages: [String] = []
            for branch in branches {
                guard let resolved = resolve(branch) else { return .success(nil) }
                switch step(token, in: resolved, label: describe(branch)) {
                case .success(let next): return .success(next)
                case .failure(let failure): messages.append(failure.message)
                }
            }
            if schema.types == nil && schema.properties.isEmpty {
                return .failure(StepFailure(message: "no alternative of \(label) has '\(token)'"))
            }
        }
        let types = schema.types
        let isObject = types?.contains(.object) ?? !schema.properties.isEmpty
        let isArray = types?.contains(.array) ?? (schema.items != nil)
        if isObject || (types == nil && schema.items == nil) {
            if let property = schema.property(token) { return .success(property) }
            switch schema.additionalProperties {
            case .schema(let other): return .success(other)
            case .allowed(true): return .success(nil)
            case .allowed(false), .unspecified:
                if schema.properties.isEmpty {
                    if case .allowed(false) = schema.additionalProperties {
                        return .failure(StepFailure(message: "\(label) allows no members, so it has no '\(token)'"))
                    }
                    return .success(nil)  // A free-form object: anything may be read.
                }
                if !isArray {
                    let names = schema.properties.map(\.name)
                    return .failure(StepFailure(
                        message: "\(label) has no property '\(token)'\(Suggestion.didYouMean(token, in: names))"))
                }
            }
        }
        if isArray {
            if JSONPointer.arrayIndex(token) == nil {
                return .failure(StepFailure(message: "'\(token)' is not an element index of \(label): "
                    + "an index is a non-negative integer without leading zeros"))
            }
            return .success(schema.items)
        }
        if isObject { return .success(nil) }
        return .failure(StepFailure(message: "\(label) has no members, so it has no '\(token)'"))
    }

    /// Whether a value of this type may be bound into a URL path, a query value or a header (a scalar).
    ///
    /// Returns `false` only when the type is known to be an object or an array.
    func isScalarCompatible(_ schema: JSONSchema?) -> Bool {
        guard let schema, let resolved = resolve(schema), let types = resolved.types, !types.isEmpty else {
            return true
        }
        return !types.isSubset(of: [.object, .array])
    }
}
