/// A runtime expression of Arazzo 1.0.1 (section "Runtime Expressions"), parsed into what it reads.
///
/// ```
/// $url  $method  $statusCode
/// $request.header.X-Id   $request.query.page   $request.path.id   $request.body#/items/0
/// $response.header.ETag  $response.body#/token
/// $inputs.customer#/firstName        $outputs.total
/// $steps.login.outputs.token         $workflows.login.outputs.token   $workflows.login.inputs.user
/// $sourceDescriptions.petStore.url   $sourceDescriptions.petStore.getPetById
/// $components.parameters.page        $components.inputs.credentials
/// $components.successActions.done    $components.failureActions.retryLater
/// ```
///
/// Names after `$inputs.`, `$outputs.` and the output or input name of `$steps` and `$workflows` may hold dots
/// (Arazzo allows `^[a-zA-Z0-9.\-_]+$` there) and end at `#`, which begins an RFC 6901 pointer into the value.
/// A step, workflow or source name ends at the first dot.
package enum ArazzoExpression: Sendable, Hashable {
    case url
    case method
    case statusCode
    case request(MessagePart)
    case response(MessagePart)
    case inputs(name: String, pointer: JSONPointer?)
    case outputs(name: String, pointer: JSONPointer?)
    case stepOutput(stepID: String, name: String, pointer: JSONPointer?)
    case workflowValue(workflowID: String, part: WorkflowPart, name: String, pointer: JSONPointer?)
    /// A source description's `url`, or an operation or workflow of it by id.
    case sourceDescription(name: String, member: String)
    case component(ComponentKind, name: String)

    /// What `$request.` or `$response.` reads.
    package enum MessagePart: Sendable, Hashable {
        case header(String)
        case query(String)
        case path(String)
        case body(JSONPointer?)
    }

    /// The values of another workflow that `$workflows.<id>.` reads.
    package enum WorkflowPart: String, Sendable, Hashable {
        case inputs, outputs
    }

    /// The sections of `components` an expression can name.
    package enum ComponentKind: String, Sendable, Hashable, CaseIterable {
        case inputs, parameters, successActions, failureActions
    }

    /// Parses an expression that starts with `$` and holds nothing else.
    /// - Throws: ``ExpressionSyntaxError`` at the offset, in Unicode scalars, of what does not fit.
    package init(parsing text: String) throws(ExpressionSyntaxError) {
        guard text.hasPrefix("$") else { throw ExpressionSyntaxError(message: "a runtime expression starts with '$'", offset: 0) }
        let body = text.dropFirst()
        let (head, rest) = Self.split(body)
        let afterHead = 1 + head.unicodeScalars.count + 1  // the offset of what follows "$head."
        func need(_ what: String) -> ExpressionSyntaxError {
            ExpressionSyntaxError(message: "'$\(head)' must be followed by \(what)", offset: text.unicodeScalars.count)
        }
        switch head {
        case "url", "method", "statusCode":
            guard rest == nil else {
                throw ExpressionSyntaxError(message: "'$\(head)' stands alone; nothing follows it", offset: 1 + head.unicodeScalars.count)
            }
            self = head == "url" ? .url : head == "method" ? .method : .statusCode
        case "request", "response":
            guard let rest else { throw need("header.<name>, query.<name>, path.<name> or body") }
            let part = try Self.messagePart(rest, at: afterHead)
            self = head == "request" ? .request(part) : .response(part)
        case "inputs", "outputs":
            guard let rest, !rest.isEmpty else { throw need("'.' and a name") }
            let (name, pointer) = try Self.nameAndPointer(rest, at: afterHead)
            self = head == "inputs" ? .inputs(name: name, pointer: pointer) : .outputs(name: name, pointer: pointer)
        case "steps":
            guard let rest else { throw need("a step id, as in $steps.<stepId>.outputs.<name>") }
            let (stepID, field) = Self.split(rest)
            guard !stepID.isEmpty, let field else { throw need("a step id, '.outputs.' and a name") }
            let (kind, name) = Self.split(field)
            guard kind == "outputs" else {
                throw ExpressionSyntaxError(
                    message: "a step's values are read as $steps.\(stepID).outputs.<name>, not '.\(kind)'",
                    offset: afterHead + stepID.unicodeScalars.count + 1)
            }
            guard let name, !name.isEmpty else { throw need("an output name after '.outputs.'") }
            let nameOffset = afterHead + stepID.unicodeScalars.count + 1 + kind.unicodeScalars.count + 1
            let (output, pointer) = try Self.nameAndPointer(name, at: nameOffset)
            self = .stepOutput(stepID: String(stepID), name: output, pointer: pointer)
        case "workflows":
            guard let rest else { throw need("a workflow id, as in $workflows.<workflowId>.outputs.<name>") }
            let (workflowID, field) = Self.split(rest)
            guard !workflowID.isEmpty, let field else { throw need("a workflow id, '.inputs.' or '.outputs.' and a name") }
            let (kind, name) = Self.split(field)
            guard let part = WorkflowPart(rawValue: String(kind)) else {
                throw ExpressionSyntaxError(
                    message: "a workflow's values are read as $workflows.\(workflowID).inputs.<name> or .outputs.<name>, "
                        + "not '.\(kind)'",
                    offset: afterHead + workflowID.unicodeScalars.count + 1)
            }
            guard let name, !name.isEmpty else { throw need("a name after '.\(kind).'") }
            let nameOffset = afterHead + workflowID.unicodeScalars.count + 1 + kind.unicodeScalars.count + 1
            let (value, pointer) = try Self.nameAndPointer(name, at: nameOffset)
            self = .workflowValue(workflowID: String(workflowID), part: part, name: value, pointer: pointer)
        case "sourceDescriptions":
            guard let rest else { throw need("a source name and a member, as in $sourceDescriptions.<name>.url") }
            let (name, member) = Self.split(rest)
            guard !name.isEmpty, let member, !member.isEmpty else {
                throw need("a source name and a member: .url, or an operationId or workflowId")
            }
            self = .sourceDescription(name: String(name), member: String(member))
        case "components":
            guard let rest else { throw need("a section and a name, as in $components.parameters.<name>") }
            let (section, name) = Self.split(rest)
            guard let kind = ComponentKind(rawValue: String(section)) else {
                let known = ComponentKind.allCases.map(\.rawValue)
                throw ExpressionSyntaxError(
                    message: "unknown components section '\(section)'"
                        + (Suggestion.closest(to: String(section), in: known).map { "; did you mean '\($0)'?" }
                            ?? "; expected \(known.joined(separator: ", "))"),
                    offset: afterHead)
            }
            guard let name, !name.isEmpty else { throw need("a name after '.\(section).'") }
            self = .component(kind, name: String(name))
        default:
            let sources = [
                "url", "method", "statusCode", "request", "response", "inputs", "outputs", "steps", "workflows",
                "sourceDescriptions", "components",
            ]
            throw ExpressionSyntaxError(
                message: "unknown runtime expression '$\(head)'"
                    + (Suggestion.closest(to: String(head), in: sources).map { "; did you mean '$\($0)'?" }
                        ?? "; Arazzo has $\(sources.joined(separator: ", $"))"),
                offset: 1)
        }
    }

    /// Parses an expression as ``init(parsing:)`` does, and also accepts `$steps.<stepId>.<name>` without
    /// `.outputs`, as the official bnpl example writes one, reading it as `$steps.<stepId>.outputs.<name>` with a
    /// warning that says how to write it.
    /// - Returns: The expression, and the warning when the text needed the lenient reading.
    package static func parsingLeniently(_ text: String) throws(ExpressionSyntaxError)
        -> (expression: ArazzoExpression, warning: String?)
    {
        do {
            return (try ArazzoExpression(parsing: text), nil)
        } catch {
            let (stepID, rest) = split(text.dropFirst(7))
            guard text.hasPrefix("$steps."), !stepID.isEmpty, let rest, !rest.isEmpty, !rest.hasPrefix("outputs") else {
                throw error
            }
            let (name, pointer) = try nameAndPointer(rest, at: 7 + stepID.unicodeScalars.count + 1)
            return (
                .stepOutput(stepID: String(stepID), name: name, pointer: pointer),
                "'\(text)' reads a step's output without '.outputs'; write $steps.\(stepID).outputs.\(rest)"
            )
        }
    }

    /// The source and member that `reference` names when it is `$sourceDescriptions.<name>.<member>` (an operation
    /// or workflow of another source, as a step, `dependsOn` or an action names it); `nil` for anything else.
    package static func sourceDescriptionMember(_ reference: String) -> (source: String, member: String)? {
        guard reference.hasPrefix("$"),
            case .sourceDescription(let name, let member)? = try? parsingLeniently(reference).expression
        else { return nil }
        return (name, member)
    }

    /// The text up to the first `.` and what follows it (`nil` when there is no dot).
    private static func split(_ text: Substring) -> (Substring, Substring?) {
        guard let dot = text.firstIndex(of: ".") else { return (text, nil) }
        return (text[..<dot], text[text.index(after: dot)...])
    }

    /// A name that runs to `#`, and the pointer after it.
    private static func nameAndPointer(_ text: Substring, at offset: Int) throws(ExpressionSyntaxError)
        -> (String, JSONPointer?)
    {
        guard let hash = text.firstIndex(of: "#") else { return (String(text), nil) }
        let name = text[..<hash]
        guard !name.isEmpty else { throw ExpressionSyntaxError(message: "a name must come before '#'", offset: offset) }
        return (String(name), try pointer(text[text.index(after: hash)...], at: offset + name.unicodeScalars.count + 1))
    }

    private static func pointer(_ text: Substring, at offset: Int) throws(ExpressionSyntaxError) -> JSONPointer {
        do {
            return try JSONPointer(parsing: text)
        } catch {
            throw ExpressionSyntaxError(message: error.message, offset: offset + error.offset)
        }
    }

    /// `header.<token>`, `query.<name>`, `path.<name>` or `body` with an optional pointer.
    private static func messagePart(_ text: Substring, at offset: Int) throws(ExpressionSyntaxError) -> MessagePart {
        if text == "body" { return .body(nil) }
        if text.hasPrefix("body#") { return .body(try pointer(text.dropFirst(5), at: offset + 5)) }
        let (kind, name) = split(text)
        switch kind {
        case _ where kind.contains("#"):
            let written = kind[..<kind.firstIndex(of: "#")!]
            throw ExpressionSyntaxError(
                message: "unknown message part '\(written)'"
                    + (Suggestion.closest(to: String(written), in: ["body"]).map { "; did you mean '\($0)'?" }
                        ?? "; only body takes a '#' pointer"),
                offset: offset)
        case "header":
            guard let name, !name.isEmpty, name.unicodeScalars.allSatisfy(isTokenCharacter) else {
                throw ExpressionSyntaxError(message: "'header.' must be followed by a header name", offset: offset + 7)
            }
            return .header(String(name))
        case "query", "path":
            guard let name, !name.isEmpty else {
                throw ExpressionSyntaxError(message: "'\(kind).' must be followed by a parameter name", offset: offset + kind.count + 1)
            }
            return kind == "query" ? .query(String(name)) : .path(String(name))
        default:
            let known = ["header", "query", "path", "body"]
            throw ExpressionSyntaxError(
                message: "unknown message part '\(kind)'"
                    + (Suggestion.closest(to: String(kind), in: known).map { "; did you mean '\($0)'?" }
                        ?? "; expected header, query, path or body"),
                offset: offset)
        }
    }

    /// `tchar` of RFC 9110: the characters of a header name.
    private static func isTokenCharacter(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", "!", "#", "$", "%", "&", "'", "*", "+", "-", ".", "^", "_", "`", "|", "~": true
        default: false
        }
    }
}
