import FlowCore

/// A decoder of a YAML file format that collects located diagnostics: the stub file and the test file.
///
/// The readers here are what both formats need to report a wrong shape at the
/// node where it is written, with the same codes and wording as the workflow decoder.
protocol DiagnosingDecoder {
    /// The problems found so far.
    var diagnostics: [Diagnostic] { get set }
}

extension DiagnosingDecoder {
    mutating func string(_ node: YAMLNode, _ what: String) -> String? {
        guard case .string(let text)? = node.scalar?.value else {
            report(.typeMismatch, "expected \(what) to be a string, found \(node.kindDescription)", node)
            return nil
        }
        return text
    }

    /// The text of a non-null scalar, so `page: 2` and `page: "2"` both mean the string `2`.
    mutating func scalarText(_ node: YAMLNode, _ what: String) -> String? {
        guard let scalar = node.scalar, scalar.value != .null else {
            report(.typeMismatch, "expected \(what) to be a string, found \(node.kindDescription)", node)
            return nil
        }
        return scalar.text
    }

    mutating func reader(
        _ node: YAMLNode, _ context: String, _ allowed: [String], required: [String] = []
    ) -> MappingReader? {
        MappingReader(node, context, allowed: allowed, required: required, diagnostics: &diagnostics)
    }

    mutating func report(_ code: FlowError.Code, _ message: String, _ node: YAMLNode) {
        diagnostics.append(Diagnostic(.error, code, message, at: node.location))
    }

    /// The JSON value a node denotes; NaN and the infinities, which JSON lacks, are reported.
    mutating func json(_ node: YAMLNode) -> JSONValue {
        switch node.content {
        case .scalar(let scalar):
            if case .double(let value) = scalar.value, !value.isFinite {
                report(.invalidValue, "JSON has no NaN or infinity; found \(scalar.text)", node)
            }
        case .sequence(let elements):
            return .array(elements.map { json($0) })
        case .mapping(let pairs):
            var members: [String: JSONValue] = [:]
            for pair in pairs { members[pair.key.scalar?.text ?? ""] = json(pair.value) }
            return .object(members)
        }
        return JSONValue(yaml: node)
    }
}
