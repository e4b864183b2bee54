extension PlanGraph {
    /// The graph as a Mermaid flowchart, top to bottom.
    ///
    /// A `%%` comment with the graph's name follows the header. Steps are rectangles with their
    /// id in bold; on-demand steps are rounded and dashed (class `onDemand`), inline compensation
    /// requests likewise (class `compensation`), `workflow:` steps are subroutines (`[[…]]`), the outputs node is a stadium (class
    /// `workflowOutputs`) and the "any step" node a hexagon (class `anyStep`). Ordering edges
    /// are solid arrows; conditional edges (refresh, catch, on-error, compensate, anything
    /// touching an on-demand step) are dotted. GitHub, GitLab and most Markdown previewers draw the result
    /// inside a ```` ```mermaid ```` block.
    ///
    /// Every label is quoted, and the characters Mermaid would read as syntax (`"`, `#`, `<`,
    /// `>`, `&`, `|` and the backtick) are written as entity codes such as `#quot;`, so any
    /// path or name is drawn as written. Node ids are ``Node/id``, which are safe as they are.
    ///
    /// ```
    /// flowchart TD
    ///     user["<b>user</b><br/>GET /user"]
    ///     account["<b>account</b><br/>GET /account/{$steps.user.outputs.userId}"]
    ///     user -->|"userId"| account
    /// ```
    ///
    /// - Returns: The flowchart source, ending with a line break.
    public func mermaid() -> String {
        // The comment follows the header: older Mermaid releases detect the diagram type on the first line.
        var out = "flowchart TD\n    %% \(Self.mermaidComment(name))\n"
        for node in nodes {
            let label = ([Self.mermaidEscaped(node.title)].map { "<b>\($0)</b>" }
                + node.details.map(Self.mermaidEscaped)).joined(separator: "<br/>")
            let (open, close) = switch node.kind {
            case .step: ("[", "]")
            case .workflowCall: ("[[", "]]")
            case .onDemandStep, .compensation: ("(", ")")
            case .anyStep: ("{{", "}}")
            case .outputs: ("([", "])")
            }
            out += "    \(node.id)\(open)\"\(label)\"\(close)\n"
        }
        for edge in edges {
            let arrow = edge.isConditional ? "-.->" : "-->"
            out += "    \(edge.from) \(arrow)|\"\(Self.mermaidEscaped(edge.label))\"| \(edge.to)\n"
        }
        let classes: [(name: String, style: String, kind: Node.Kind)] = [
            ("onDemand", "stroke-dasharray: 5 5", .onDemandStep),
            ("compensation", "stroke-dasharray: 5 5", .compensation),
            ("anyStep", "stroke-dasharray: 2 2", .anyStep),
            ("workflowOutputs", "stroke-width: 2px", .outputs),
        ]
        for entry in classes {
            let members = nodes.filter { $0.kind == entry.kind }.map(\.id)
            guard !members.isEmpty else { continue }
            out += "    classDef \(entry.name) \(entry.style)\n"
            out += "    class \(members.joined(separator: ",")) \(entry.name)\n"
        }
        return out
    }

    /// Text made safe inside a quoted Mermaid label, with syntax characters as entity codes.
    ///
    /// `#` is encoded first, since every entity code starts with one. Line breaks become spaces:
    /// a label's lines are joined with `<br/>` by the renderer, not by the text.
    static func mermaidEscaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "#": out += "#35;"
            case "\"": out += "#quot;"
            case "<": out += "#lt;"
            case ">": out += "#gt;"
            case "&": out += "#amp;"
            case "|": out += "#124;"
            case "`": out += "#96;"
            case "\n", "\r", "\r\n": out += " "
            default: out.append(character)
            }
        }
        return out
    }

    /// Text for a `%%` comment line, which ends at the first line break.
    private static func mermaidComment(_ text: String) -> String {
        String(text.map { $0.isNewline ? " " : $0 })
    }
}
