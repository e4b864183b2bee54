extension PlanGraph {
    /// The graph in Graphviz's DOT language, top to bottom.
    ///
    /// Steps are rounded boxes, `workflow:` steps components (a box with tabs, a subroutine); on-demand steps
    /// and inline compensation requests are dashed, the
    /// outputs node an ellipse and the "any step" node a dashed hexagon. Ordering edges are solid;
    /// conditional edges (refresh, catch, on-error, compensate, anything touching an on-demand
    /// step) are dashed, with catch and on-error edges in red, refresh edges in orange and
    /// compensate edges in blue so failure handling stands out; a loop's edge to its own step is
    /// purple. Render it with Graphviz:
    ///
    /// ```sh
    /// flowrun graph wf.yaml --format dot | dot -Tsvg > wf.svg
    /// ```
    ///
    /// Every id and label is a quoted string with `\` and `"` escaped, so any name or path is
    /// drawn as written; a label's lines are separated by `\n`, which DOT centres.
    ///
    /// - Returns: The DOT source, ending with a line break.
    public func dot() -> String {
        var out = "digraph \(Self.dotQuoted(name)) {\n"
        out += "    rankdir=TB;\n"
        out += "    node [shape=box, style=rounded, fontname=\"Helvetica\", fontsize=11];\n"
        out += "    edge [fontname=\"Helvetica\", fontsize=9];\n"
        for node in nodes {
            var attributes = ["label=" + Self.dotQuoted(([node.title] + node.details).joined(separator: "\n"))]
            switch node.kind {
            case .step: break
            case .workflowCall: attributes += ["shape=component", "style=solid"]
            case .onDemandStep, .compensation: attributes.append("style=\"rounded,dashed\"")
            case .anyStep: attributes += ["shape=hexagon", "style=dashed"]
            case .outputs: attributes += ["shape=ellipse", "style=bold"]
            }
            out += "    \(Self.dotQuoted(node.id)) [\(attributes.joined(separator: ", "))];\n"
        }
        for edge in edges {
            var attributes = ["label=" + Self.dotQuoted(edge.label)]
            if edge.isConditional { attributes.append("style=dashed") }
            switch edge.kind {
            case .catchRule: attributes += ["color=firebrick", "fontcolor=firebrick"]
            case .refresh: attributes += ["color=darkorange3", "fontcolor=darkorange3"]
            case .compensation: attributes += ["color=royalblue4", "fontcolor=royalblue4"]
            case .switchCase: attributes += ["color=darkgreen", "fontcolor=darkgreen"]
            case .loop, .successAction: attributes += ["color=purple4", "fontcolor=purple4"]
            case .data, .variable, .after: break
            }
            out += "    \(Self.dotQuoted(edge.from)) -> \(Self.dotQuoted(edge.to)) [\(attributes.joined(separator: ", "))];\n"
        }
        out += "}\n"
        return out
    }

    /// A DOT double-quoted string: `\` and `"` escaped, line breaks as DOT's centred `\n`.
    ///
    /// Escaping the backslash also keeps a literal `\l` or `\N` in a path from being read as one
    /// of DOT's label escapes.
    static func dotQuoted(_ text: String) -> String {
        var out = "\""
        for character in text {
            switch character {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n", "\r\n": out += "\\n"
            case "\r": break
            default: out.append(character)
            }
        }
        return out + "\""
    }
}
