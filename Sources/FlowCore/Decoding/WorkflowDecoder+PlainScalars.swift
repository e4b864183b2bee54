extension WorkflowDecoder {
    /// Warns about plain scalars in header, query or form values that are not sent as they are written.
    ///
    /// YAML reads an unquoted `1e3` as the number 1000, `1.50` as 1.5, `0x1F` as 31, `True` as `true` and
    /// `~` or `null` as null (which leaves the parameter or header out), so the request would carry other text
    /// than the file shows. `10` or `true` are sent as written and pass.
    /// - Parameters:
    ///   - node: The `headers`, `query` or `form` mapping.
    ///   - what: What its entries are, for messages: "header", "query parameter", "form field".
    mutating func warnAboutPlainScalars(in node: YAMLNode, _ what: String) {
        guard case .mapping(let pairs) = node.content else { return }
        for pair in pairs {
            let name = pair.key.scalar?.text ?? ""
            let values: [YAMLNode] = if case .sequence(let elements) = pair.value.content { elements } else { [pair.value] }
            for value in values {
                guard let scalar = value.scalar, scalar.style == .plain else { continue }
                let sent: String
                switch scalar.value {
                case .string: continue
                case .null:
                    diagnostics.append(Diagnostic(
                        .warning, .unquotedScalar,
                        "\(what) '\(name)' is written \(scalar.text), which YAML reads as null, so it is left out of "
                            + "the request; quote it (\"\(scalar.text)\") to send the text",
                        at: value.location))
                    continue
                case .bool(let bool): sent = bool ? "true" : "false"
                case .int(let int): sent = String(int)
                case .double(let double):
                    guard double.isFinite else { continue }  // An error of its own.
                    sent = JSONValue.numberText(double)
                }
                guard sent != scalar.text else { continue }
                diagnostics.append(Diagnostic(
                    .warning, .unquotedScalar,
                    "\(what) '\(name)' is written \(scalar.text), which YAML reads as a \(scalar.value.kindName) "
                        + "and is sent as '\(sent)'; quote it (\"\(scalar.text)\") to send it as written",
                    at: value.location))
            }
        }
    }
}

extension YAMLScalar.Value {
    /// The kind of a non-string core-schema value, for messages.
    fileprivate var kindName: String {
        switch self {
        case .bool: "boolean"
        case .int, .double: "number"
        case .null: "null"
        case .string: "string"
        }
    }
}
