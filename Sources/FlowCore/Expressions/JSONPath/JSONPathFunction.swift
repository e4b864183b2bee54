/// The function extensions of RFC 9535 section 2.4, with their declared types.
enum JSONPathFunction: String, Sendable, CaseIterable {
    case length, count, match, search, value

    /// The types of RFC 9535 section 2.4.1.
    enum ParameterType: Sendable {
        /// A JSON value, or nothing.
        case value
        /// True or false.
        case logical
        /// A nodelist.
        case nodes
    }

    /// The declared parameter types, in order.
    var parameters: [ParameterType] {
        switch self {
        case .length: [.value]
        case .count, .value: [.nodes]
        case .match, .search: [.value, .value]
        }
    }

    /// The declared result type.
    var result: ParameterType {
        switch self {
        case .length, .count, .value: .value
        case .match, .search: .logical
        }
    }

    /// The signature as the RFC writes it, for error messages: `length(ValueType) -> ValueType`.
    var signature: String {
        func name(_ type: ParameterType) -> String {
            switch type {
            case .value: "ValueType"
            case .logical: "LogicalType"
            case .nodes: "NodesType"
            }
        }
        return "\(rawValue)(\(parameters.map(name).joined(separator: ", "))) -> \(name(result))"
    }
}
