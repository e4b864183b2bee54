/// Decoding of request bodies (`body`, `form`, `text`, `multipart`) and of `parse:` under a step's `response:`.
extension WorkflowDecoder {
    /// The keys of a request that declare its body; a request has at most one.
    static let bodyKeys = ["body", "form", "text", "multipart"]

    /// The keys of a `multipart:` part written as a mapping.
    static let multipartPartKeys = ["file", "value", "filename", "contentType"]

    /// The body of a request whose keys `fields` holds, if it declares one.
    mutating func requestBody(_ fields: MappingReader) -> RequestBody? {
        let present = Self.bodyKeys.filter { fields.contains($0) }
        for extra in present.dropFirst() {
            report(.invalidValue,
                   "a request has one body: 'body' (JSON), 'form', 'text' or 'multipart'; found '\(present[0])' and '\(extra)'",
                   fields[extra]!, key: fields.keyNode(extra))
        }
        guard let kind = present.first, let node = fields[kind] else { return nil }
        switch kind {
        case "body": return .json(template(node), node.location)
        case "form":
            warnAboutPlainScalars(in: node, "form field")
            return .form(bindings(node, "'form'", names: .free), node.location)
        case "text": return textBody(node)
        default:
            warnAboutPlainScalars(in: node, "multipart field")
            return .multipart(multipartParts(node), node.location)
        }
    }

    /// `text: "…"` or `text: { value: "…", contentType: text/csv }`.
    private mutating func textBody(_ node: YAMLNode) -> RequestBody? {
        if node.mapping == nil {
            if node.scalar == nil {
                report(.typeMismatch, "expected 'text' to be a string or a mapping with 'value', found \(node.kindDescription)",
                       node)
                return nil
            }
            return .text(template(node), contentType: nil, node.location)
        }
        guard let fields = reader(node, "'text'", ["value", "contentType"], required: ["value"]),
            let value = fields["value"]
        else { return nil }
        if value.scalar == nil {
            report(.typeMismatch, "expected the 'value' of 'text' to be a string, found \(value.kindDescription)", value)
        }
        return .text(template(value), contentType: fields["contentType"].flatMap { contentType($0) }, node.location)
    }

    /// The parts of `multipart:`, in file order.
    private mutating func multipartParts(_ node: YAMLNode) -> [MultipartPart] {
        entries(node, "'multipart'").compactMap { entry in
            if entry.name.value.isEmpty {
                report(.invalidValue, "a multipart part needs a name", entry.value)
                return nil
            }
            guard entry.value.mapping != nil else {
                return MultipartPart(name: entry.name, content: .value(template(entry.value)))
            }
            let label = "multipart part '\(entry.name.value)'"
            guard let fields = reader(entry.value, label, Self.multipartPartKeys) else { return nil }
            let content: MultipartPart.Content
            switch (fields["file"], fields["value"]) {
            case (let file?, nil):
                guard string(file, "the 'file' of \(label)") != nil else { return nil }
                content = .file(template(file), file.location)
            case (nil, let value?):
                content = .value(template(value))
            default:
                report(.invalidValue,
                       "\(label) has either 'file' (a path relative to the workflow file) or 'value', "
                           + "not \(fields.contains("file") ? "both" : "neither"); write a plain value for a field",
                       entry.value)
                return nil
            }
            return MultipartPart(
                name: entry.name, content: content, filename: fields["filename"].map { template($0) },
                contentType: fields["contentType"].flatMap { contentType($0) })
        }
    }

    /// A content type such as `text/csv; charset=utf-8`: a string with a `/` and no line break.
    private mutating func contentType(_ node: YAMLNode) -> Located<String>? {
        guard let text = string(node, "'contentType'") else { return nil }
        let mediaType = BodyFormat.mediaType(text.value) ?? ""
        let parts = mediaType.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty,
            !text.value.unicodeScalars.contains(where: { $0 == "\r" || $0 == "\n" || $0 == "\0" })
        else {
            report(.invalidValue, "'\(text.value)' is not a content type such as 'text/csv' or 'image/png'", node)
            return nil
        }
        return text
    }

    /// `parse:` in the mapping of a step's `response:`: a built-in format, or `{ use: <parser> }`.
    mutating func responseParsing(_ response: YAMLNode) -> Located<ResponseParsing>? {
        guard let node = response.mapping?.first(where: { $0.key.scalar?.text == "parse" })?.value else { return nil }
        let formats = BodyFormat.allCases.map(\.rawValue)
        if let text = node.scalar?.text, node.mapping == nil {
            guard case .string = node.scalar?.value, let format = BodyFormat(rawValue: text) else {
                report(.invalidValue,
                       "'parse' is one of \(formats.joined(separator: ", ")) or { use: <parser> }, found '\(text)'"
                           + Suggestion.didYouMean(text, in: formats),
                       node)
                return nil
            }
            return Located(.format(format), at: node.location)
        }
        guard let fields = reader(node, "'parse'", ["use"], required: ["use"]), let use = fields["use"],
            let name = name(use, "the parser of 'parse'")
        else { return nil }
        return Located(.parser(name.value), at: use.location)
    }
}
