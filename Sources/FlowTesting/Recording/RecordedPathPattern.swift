import FlowCore
import Foundation

/// Turns the path a step requested into a stub's path pattern: each segment that a binding of the step's
/// `path` filled becomes a `{name}` parameter, named after what it read (`/account/{$steps.user.outputs.userId}`
/// requested as `/account/u-1` gives `/account/{userId}`), so a recorded stub still answers when the values
/// change. Segments written literally, and a server URL's own path (`/api`), stay as they were requested.
/// A request whose URL did not come from the step's template — a page after the first of a `paginate` step
/// that follows next-page URLs, or a path the template does not fit — keeps its path as requested.
struct RecordedPathPattern {
    /// One `/`-separated piece of a step's path template.
    enum Piece: Equatable {
        /// Text written in the workflow, unescaped.
        case literal(String)
        /// A whole segment that one expression fills, with the parameter name it gives.
        case bound(String)
        /// A segment that mixes text and expressions (`{$inputs.name}.json`): kept as requested.
        case mixed
    }

    /// The pieces of every request path template in a plan, by step id: a called workflow may have a step with
    /// the id of one of its caller's.
    private let templates: [String: [[Piece]]]
    /// The ids of the `paginate` steps whose pages after the first are at the URLs responses give (`next: link`,
    /// or an expression without `param`), not at their templates.
    private let nextPageFollowers: Set<String>

    /// Reads the path templates of `plan`'s steps, compensations and called workflows.
    init(plan: Plan) {
        var templates: [String: [[Piece]]] = [:]
        var followers: Set<String> = []
        func collect(_ plan: Plan) {
            for planned in plan.steps + plan.compensations.values.sorted(by: { $0.id < $1.id }) {
                switch planned.step.pagination?.next {
                case .link, .value(_, param: nil): followers.insert(planned.id)
                default: break
                }
                if let pieces = Self.pieces(of: planned.step.request.path) {
                    templates[planned.id, default: []].append(pieces)
                }
                if let called = planned.subWorkflow { collect(called) }
            }
        }
        collect(plan)
        self.templates = templates
        nextPageFollowers = followers
    }

    /// The pattern for `path` as step `stepID` requested it.
    /// - Parameters:
    ///   - path: The request's path, percent-encoded, without the query.
    ///   - stepID: The step that sent it.
    ///   - iteration: The `repeat` iteration's or `paginate` page's index, if any.
    /// - Returns: The path with its bound segments as `{name}` parameters when it was built from a template of the
    ///   step and that template fits it, else the path itself; either way a valid ``MockStub/Match/path``.
    func pattern(for path: String, stepID: String, iteration: Int? = nil) -> String {
        // A next page's URL came from a response, so no binding filled any of its segments.
        if let iteration, iteration > 0, nextPageFollowers.contains(stepID) { return Self.literal(path) }
        let segments = PathPattern.split(path).map(String.init)
        for pieces in templates[stepID] ?? [] {
            if let pattern = Self.pattern(segments, fitting: pieces) { return pattern }
        }
        return Self.literal(path)
    }

    /// `path` as a pattern that matches it alone: no segment is a parameter.
    static func literal(_ path: String) -> String {
        render(PathPattern.split(path).map { .literal(String($0)) })
    }

    private enum Output {
        case literal(String)
        case parameter(String)
    }

    /// The pattern when `pieces`, aligned with the end of `segments`, fit them: every literal piece equals its
    /// segment (both decoded). A server URL's path and an absolute URL's start may put segments before the
    /// template's, so only the aligned ends are compared; a path with fewer segments than the template was not
    /// built from it.
    private static func pattern(_ segments: [String], fitting pieces: [Piece]) -> String? {
        guard segments.count >= pieces.count else { return nil }
        var output = segments.map { Output.literal($0) }
        var used: [String: Int] = [:]
        let count = pieces.count
        for offset in 0..<count {
            let index = segments.count - count + offset
            switch pieces[pieces.count - count + offset] {
            case .literal(let text):
                guard URLEncoding.percentDecode(segments[index]) == text else { return nil }
            case .bound(let name):
                guard !segments[index].isEmpty else { return nil }
                used[name, default: 0] += 1
                output[index] = .parameter(used[name]! == 1 ? name : "\(name)\(used[name]!)")
            case .mixed:
                break
            }
        }
        return render(output)
    }

    /// The pattern's text; a literal segment's `{`, `}` and a whole `**` are percent-encoded so the stub reads
    /// them as text (stubs compare segments decoded).
    private static func render(_ output: [Output]) -> String {
        "/" + output.map { segment in
            switch segment {
            case .parameter(let name): return "{\(name)}"
            case .literal(let text):
                let escaped = text.replacingOccurrences(of: "{", with: "%7B").replacingOccurrences(of: "}", with: "%7D")
                return escaped == "**" ? "%2A%2A" : escaped
            }
        }.joined(separator: "/")
    }

    /// The `/`-separated pieces of a path template, or `nil` when its segments cannot be told apart statically
    /// (a whole-value expression). A leading expression that gives the start of the URL (`{$inputs.base}/users`)
    /// is left out, with the text that follows it in its piece, since its value may span several segments.
    static func pieces(of path: ValueTemplate) -> [Piece]? {
        var parts: [[StringTemplate.Segment]] = [[]]
        switch path {
        case .literal(.string(let text)):
            parts = text.split(separator: "/", omittingEmptySubsequences: false).map { [.literal(String($0))] }
        case .string(let template, _):
            for segment in template.segments {
                guard case .literal(let text) = segment else {
                    parts[parts.count - 1].append(segment)
                    continue
                }
                let split = text.split(separator: "/", omittingEmptySubsequences: false)
                parts[parts.count - 1].append(.literal(String(split[0])))
                parts.append(contentsOf: split.dropFirst().map { [.literal(String($0))] })
            }
        default:
            return nil
        }
        var pieces = parts.map(piece)
        if RequestPath.origin(of: path) == .boundBase { pieces.removeFirst() }
        // A relative path starts with `/`, which leaves an empty first piece, as `PathPattern.split` drops it.
        if pieces.first == .literal("") { pieces.removeFirst() }
        if pieces.contains(where: { if case .literal(let text) = $0 { text.contains("?") } else { false } }) {
            return nil
        }
        return pieces
    }

    private static func piece(_ parts: [StringTemplate.Segment]) -> Piece {
        let nonEmpty = parts.filter { if case .literal("") = $0 { false } else { true } }
        var text = ""
        for part in nonEmpty {
            switch part {
            case .literal(let literal): text += literal
            case .expression(let expression, _):
                return nonEmpty.count == 1 ? .bound(parameterName(expression)) : .mixed
            }
        }
        return .literal(text)
    }

    /// The name a bound segment's parameter takes: the last name the expression reads (`userId` for
    /// `$steps.user.outputs.userId`, `id` for `$item#/id`), in letters, digits, `_` and `-`.
    static func parameterName(_ expression: RuntimeExpression) -> String {
        var name: String
        if let token = expression.pointer?.tokens.last, !token.isEmpty {
            name = token
        } else {
            switch expression.source {
            case .input(let input): name = input
            case .variable(let variable): name = variable
            case .environment(let variable): name = variable
            case .stepOutput(_, let output): name = output
            case .responseHeader(let header): name = header
            case .responseBody: name = "body"
            case .statusCode: name = "status"
            case .url: name = "url"
            case .item: name = "item"
            }
        }
        name = String(name.unicodeScalars.filter { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        })
        return name.isEmpty ? "param" : name
    }
}
