/// An Arazzo step's `requestBody` as the body of a flowrun request.
extension ArazzoLowering {
    /// The step's request body: a mapping or sequence is JSON (or form fields, for a form content type); a string
    /// that parses as JSON, with a JSON content type, is that JSON; any other string is sent as text. Each
    /// replacement then sets its target. Without a `contentType`, the operation's (its first) applies, and JSON
    /// when it declares none.
    mutating func requestBody(
        _ body: ArazzoRequestBody, operationContentType: String?, at location: SourceLocation
    ) -> RequestBody? {
        guard var payload = body.payload else { return nil }
        let contentType = (body.contentType?.value ?? operationContentType)?.lowercased() ?? "application/json"
        let isJSON = contentType.hasSuffix("/json") || contentType.hasSuffix("+json")
        let isForm = contentType.hasPrefix("application/x-www-form-urlencoded")
        if isJSON, let scalar = payload.scalar, case .string(let text) = scalar.value,
            let parsed = try? YAMLLoader().load(Array(text.utf8), path: document.path), parsed.scalar == nil
        {
            payload = Self.relocated(parsed, to: payload.location)
        }
        var value = template(payload)
        if payload.scalar != nil, !isJSON {
            let written = body.contentType ?? operationContentType.map { Located($0, at: payload.location) }
            return .text(value, contentType: written, payload.location)
        }
        for (target, replacement) in body.replacements {
            guard let replaced = value.replacing(at: target.value.tokens[...], with: template(replacement)) else {
                error(.invalidValue,
                      "replacement target '\(target.value)' is not in the payload", at: target.location)
                continue
            }
            value = replaced
        }
        if isForm, let pairs = payload.mapping {
            // Form fields in the order the payload writes them, each with its value after the replacements.
            let members: [String: ValueTemplate] =
                switch value {
                case .object(let members): members
                case .literal(.object(let members)): members.mapValues { .literal($0) }
                default: [:]
                }
            let fields = pairs.compactMap { pair -> Binding? in
                guard case .string(let name)? = pair.key.scalar?.value, let member = members[name] else { return nil }
                return Binding(name: Located(name, at: pair.key.location), value: member)
            }
            return .form(fields, payload.location)
        }
        return .json(value, payload.location)
    }

    /// `node` and everything under it located at `location`: a payload string parsed as JSON is located where the
    /// string is.
    static func relocated(_ node: YAMLNode, to location: SourceLocation) -> YAMLNode {
        var node = node
        node.location = location
        switch node.content {
        case .scalar(var scalar):
            scalar.source = nil
            // A string that is one embedded expression, "{$inputs.customer}", is the expression's value: the
            // way to put an object or a number into a payload written as JSON text.
            if case .string(let text) = scalar.value, text.hasPrefix("{$"), text.hasSuffix("}"),
                !text.dropFirst().contains("{"), text.firstIndex(of: "}") == text.index(before: text.endIndex)
            {
                let expression = String(text.dropFirst().dropLast())
                scalar.value = .string(expression)
                scalar.text = expression
            }
            node.content = .scalar(scalar)
        case .sequence(let elements):
            node.content = .sequence(elements.map { relocated($0, to: location) })
        case .mapping(let pairs):
            node.content = .mapping(pairs.map {
                YAMLPair(key: relocated($0.key, to: location), value: relocated($0.value, to: location))
            })
        }
        return node
    }
}

extension ValueTemplate {
    /// The part of the template at `tokens` (an RFC 6901 pointer's reference tokens); `nil` when the pointer reaches
    /// nothing that is known before the run (a member of an expression's value).
    func member(at tokens: ArraySlice<String>) -> ValueTemplate? {
        guard let token = tokens.first else { return self }
        let rest = tokens.dropFirst()
        switch self {
        case .object(let members): return members[token]?.member(at: rest)
        case .array(let elements):
            guard let index = Int(token), elements.indices.contains(index) else { return nil }
            return elements[index].member(at: rest)
        case .literal(let value):
            return JSONPointer(tokens: Array(tokens)).resolve(in: value).map { .literal($0) }
        case .expression, .string:
            return nil
        }
    }

    /// The template with the value at `tokens` (an RFC 6901 pointer's reference tokens) replaced by `replacement`;
    /// `nil` when the pointer reaches nothing.
    func replacing(at tokens: ArraySlice<String>, with replacement: ValueTemplate) -> ValueTemplate? {
        guard let token = tokens.first else { return replacement }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var members):
            guard let member = members[token], let replaced = member.replacing(at: rest, with: replacement) else {
                return nil
            }
            members[token] = replaced
            return .object(members)
        case .array(var elements):
            guard let index = Int(token), elements.indices.contains(index),
                let replaced = elements[index].replacing(at: rest, with: replacement)
            else { return nil }
            elements[index] = replaced
            return .array(elements)
        case .literal(.object(let members)):
            return ValueTemplate.object(members.mapValues { .literal($0) }).replacing(at: tokens, with: replacement)
        case .literal(.array(let elements)):
            return ValueTemplate.array(elements.map { .literal($0) }).replacing(at: tokens, with: replacement)
        case .literal, .expression, .string:
            return nil
        }
    }
}
