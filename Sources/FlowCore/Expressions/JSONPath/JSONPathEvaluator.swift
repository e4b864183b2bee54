/// Evaluates the segments of a ``JSONPathQuery`` against one document (RFC 9535 sections 2.3–2.5).
struct JSONPathEvaluator {
    /// The document's root: what `$` inside a filter refers to.
    let root: JSONValue

    /// The nodes `segments` select, applied in turn to `input`.
    mutating func nodes(of segments: [JSONPathSegment], from input: [JSONPathNode]) -> [JSONPathNode] {
        var current = input
        for segment in segments {
            var next: [JSONPathNode] = []
            switch segment {
            case .child(let selectors):
                for node in current {
                    for selector in selectors { select(selector, from: node, into: &next) }
                }
            case .descendant(let selectors):
                for node in current { descend(node, selectors, into: &next) }
            }
            current = next
        }
        return current
    }

    /// Applies `selectors` to `node` and to each of its descendants, each node before its children.
    private mutating func descend(_ node: JSONPathNode, _ selectors: [JSONPathSelector], into nodes: inout [JSONPathNode]) {
        for selector in selectors { select(selector, from: node, into: &nodes) }
        for child in Self.children(of: node) { descend(child, selectors, into: &nodes) }
    }

    /// The children of a node: an array's elements in order, an object's members in the order of their names.
    static func children(of node: JSONPathNode) -> [JSONPathNode] {
        switch node.value {
        case .array(let elements):
            return elements.enumerated().map { JSONPathNode(value: $1, path: node.path.appending(.index($0))) }
        case .object(let members):
            return Self.sortedNames(of: members).map {
                JSONPathNode(value: members[$0]!, path: node.path.appending(.name($0)))
            }
        default:
            return []
        }
    }

    /// An object's member names, ordered by their Unicode scalars.
    static func sortedNames(of members: [String: JSONValue]) -> [String] {
        members.keys.sorted { $0.unicodeScalars.lexicographicallyPrecedes($1.unicodeScalars) }
    }

    /// The nodes one selector picks from `node`.
    private mutating func select(_ selector: JSONPathSelector, from node: JSONPathNode, into nodes: inout [JSONPathNode]) {
        switch selector {
        case .name(let name):
            guard case .object(let members) = node.value, let index = members.index(forKey: name),
                members[index].key.unicodeScalars.elementsEqual(name.unicodeScalars)
            else { return }
            nodes.append(JSONPathNode(value: members[index].value, path: node.path.appending(.name(name))))
        case .wildcard:
            nodes.append(contentsOf: Self.children(of: node))
        case .index(let index):
            guard case .array(let elements) = node.value else { return }
            let resolved = index < 0 ? elements.count + index : index
            guard elements.indices.contains(resolved) else { return }
            nodes.append(JSONPathNode(value: elements[resolved], path: node.path.appending(.index(resolved))))
        case .slice(let start, let end, let step):
            guard case .array(let elements) = node.value else { return }
            for index in Self.sliceIndexes(count: elements.count, start: start, end: end, step: step ?? 1) {
                nodes.append(JSONPathNode(value: elements[index], path: node.path.appending(.index(index))))
            }
        case .filter(let expression):
            for child in Self.children(of: node) where holds(expression, current: child) {
                nodes.append(child)
            }
        }
    }

    /// The indexes a slice selects from an array of `count` elements (RFC 9535 section 2.3.4.2.2).
    static func sliceIndexes(count: Int, start: Int?, end: Int?, step: Int) -> [Int] {
        guard step != 0, count > 0 else { return [] }
        func normalized(_ index: Int) -> Int { index >= 0 ? index : count + index }
        var indexes: [Int] = []
        if step > 0 {
            let lower = min(max(normalized(start ?? 0), 0), count)
            let upper = min(max(normalized(end ?? count), 0), count)
            var index = lower
            while index < upper {
                indexes.append(index)
                index += step
            }
        } else {
            let upper = min(max(normalized(start ?? count - 1), -1), count - 1)
            let lower = min(max(end.map(normalized) ?? -1, -1), count - 1)
            var index = upper
            while lower < index {
                indexes.append(index)
                index += step
            }
        }
        return indexes
    }

    // MARK: Filters

    /// Whether a filter's logical expression holds for the child `current`.
    private mutating func holds(_ expression: JSONPathLogical, current: JSONPathNode) -> Bool {
        switch expression {
        case .or(let operands):
            return operands.contains { holds($0, current: current) }
        case .and(let operands):
            return operands.allSatisfy { holds($0, current: current) }
        case .not(let operand):
            return !holds(operand, current: current)
        case .exists(let query):
            return !nodes(of: query, current: current).isEmpty
        case .function(let call):
            return logical(call, current: current)
        case .comparison(let left, let comparison, let right):
            return Self.compare(value(left, current: current), comparison, value(right, current: current))
        }
    }

    /// The nodes a filter query selects, from the current node or the root.
    private mutating func nodes(of query: JSONPathFilterQuery, current: JSONPathNode) -> [JSONPathNode] {
        let start = query.relative ? current : JSONPathNode(value: root, path: JSONPathNode.Path())
        return nodes(of: query.segments, from: [start])
    }

    /// A comparison side's value; `nil` is "Nothing", the value of a query that selects no node.
    private mutating func value(_ comparable: JSONPathComparable, current: JSONPathNode) -> JSONValue? {
        switch comparable {
        case .literal(let value): return value
        case .query(let query): return nodes(of: query, current: current).first?.value
        case .function(let call): return value(of: call, current: current)
        }
    }

    /// The result of a function of value type.
    private mutating func value(of call: JSONPathFunctionCall, current: JSONPathNode) -> JSONValue? {
        switch call.function {
        case .length:
            switch argumentValue(call.arguments[0], current: current) {
            case .string(let string)?: return .int(string.unicodeScalars.count)
            case .array(let elements)?: return .int(elements.count)
            case .object(let members)?: return .int(members.count)
            default: return nil
            }
        case .count:
            return .int(argumentNodes(call.arguments[0], current: current).count)
        case .value:
            let nodes = argumentNodes(call.arguments[0], current: current)
            // Not `? … : nil`: JSONValue is expressible by `nil`, which would make Nothing a JSON null.
            guard nodes.count == 1 else { return Optional.none }
            return nodes[0].value
        case .match, .search:
            preconditionFailure("\(call.function.rawValue)() is a logical function; the parser refuses it as a value")
        }
    }

    /// The result of a function of logical type.
    private mutating func logical(_ call: JSONPathFunctionCall, current: JSONPathNode) -> Bool {
        switch call.function {
        case .match, .search:
            guard case .string(let subject)? = argumentValue(call.arguments[0], current: current) else { return false }
            let regex: SharedRegex
            if let literal = call.literalPattern {
                regex = literal
            } else if call.invalidPattern {
                return false
            } else {
                guard case .string(let pattern)? = argumentValue(call.arguments[1], current: current),
                    let compiled = IRegexp.compile(pattern, wholeMatch: call.function == .match)
                else { return false }
                regex = compiled
            }
            return call.function == .match
                ? (try? regex.regex.wholeMatch(in: subject)) != nil
                : (try? regex.regex.firstMatch(in: subject)) != nil
        case .length, .count, .value:
            preconditionFailure("\(call.function.rawValue)() is a value function; the parser refuses it as a test")
        }
    }

    /// An argument declared `ValueType`: a literal, a singular query's value or a value function's result.
    private mutating func argumentValue(_ argument: JSONPathArgument, current: JSONPathNode) -> JSONValue? {
        switch argument {
        case .literal(let value): return value
        case .query(let query): return nodes(of: query, current: current).first?.value
        case .function(let call): return value(of: call, current: current)
        case .logical: preconditionFailure("a logical expression is not a value; the parser refuses it")
        }
    }

    /// An argument declared `NodesType`: a query's nodes.
    private mutating func argumentNodes(_ argument: JSONPathArgument, current: JSONPathNode) -> [JSONPathNode] {
        guard case .query(let query) = argument else {
            preconditionFailure("only a query is a nodelist; the parser refuses anything else")
        }
        return nodes(of: query, current: current)
    }

    // MARK: Comparisons

    /// A comparison of two values, either of which may be Nothing (RFC 9535 section 2.3.5.2.2).
    static func compare(_ left: JSONValue?, _ comparison: JSONPathComparison, _ right: JSONValue?) -> Bool {
        switch comparison {
        case .equal: equal(left, right)
        case .notEqual: !equal(left, right)
        case .less: less(left, right)
        case .lessOrEqual: less(left, right) || equal(left, right)
        case .greater: less(right, left)
        case .greaterOrEqual: less(right, left) || equal(left, right)
        }
    }

    static func equal(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        switch (left, right) {
        case (nil, nil): return true
        case (nil, _), (_, nil): return false
        case (let left?, let right?): return equal(left, right)
        }
    }

    /// Equality of JSON values: numbers by value, strings by their Unicode scalars, arrays and objects member by member.
    static func equal(_ left: JSONValue, _ right: JSONValue) -> Bool {
        switch (left, right) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a.unicodeScalars.elementsEqual(b.unicodeScalars)
        case (.array(let a), .array(let b)): return a.count == b.count && zip(a, b).allSatisfy { equal($0, $1) }
        case (.object(let a), .object(let b)):
            return a.count == b.count && a.allSatisfy { name, value in b[name].map { equal(value, $0) } ?? false }
        default:
            guard let order = numericOrder(left, right) else { return false }
            return order == 0
        }
    }

    static func less(_ left: JSONValue?, _ right: JSONValue?) -> Bool {
        guard let left, let right else { return false }
        if case .string(let a) = left, case .string(let b) = right {
            return a.unicodeScalars.lexicographicallyPrecedes(b.unicodeScalars)
        }
        return numericOrder(left, right) == -1
    }

    /// -1, 0 or 1 when both values are numbers; `nil` otherwise. Integers compare exactly with each other.
    private static func numericOrder(_ left: JSONValue, _ right: JSONValue) -> Int? {
        if case .int(let a) = left, case .int(let b) = right { return a < b ? -1 : a == b ? 0 : 1 }
        guard let a = number(left), let b = number(right) else { return nil }
        return a < b ? -1 : a == b ? 0 : 1
    }

    private static func number(_ value: JSONValue) -> Double? {
        switch value {
        case .int(let value): Double(value)
        case .bigInteger(let digits): Double(digits)
        case .double(let value): value
        default: nil
        }
    }
}
