/// A parsed runtime expression: where a value comes from at run time, and an optional JSON
/// pointer into it.
///
/// Runtime expressions follow the OpenAPI Initiative's Arazzo 1.0 syntax, restricted to the
/// sources flowrun provides:
///
/// | Text                                   | ``Source``                                  |
/// |----------------------------------------|---------------------------------------------|
/// | `$inputs.token`                        | ``Source/input(_:)``                        |
/// | `$vars.token`                          | ``Source/variable(_:)``                     |
/// | `$env.BANK_URL`                        | ``Source/environment(_:)``                  |
/// | `$steps.user.outputs.userId`           | ``Source/stepOutput(step:output:)``         |
/// | `$response.body`                       | ``Source/responseBody``                     |
/// | `$response.header.Retry-After`         | ``Source/responseHeader(_:)``               |
/// | `$statusCode`                          | ``Source/statusCode``                       |
/// | `$url`                                 | ``Source/url``                              |
///
/// Inputs, variables, step outputs and the response body may be followed by `#` and an
/// RFC 6901 ``JSONPointer``: `$response.body#/data/0/id`. Environment variables, headers, the
/// status code and the URL are scalars and take no pointer.
///
/// Parse text with ``init(parsing:)`` or ``ExpressionParser/parseExpression(_:)``; embed
/// expressions in strings with ``StringTemplate``. ``description`` is the canonical text, and
/// parsing always gives back exactly the text that was parsed.
package struct RuntimeExpression: Hashable, Sendable, CustomStringConvertible {
    /// Where the value of a ``RuntimeExpression`` comes from.
    package enum Source: Hashable, Sendable {
        /// A run input, `$inputs.<name>`.
        case input(String)
        /// A run-scoped variable, `$vars.<name>`.
        case variable(String)
        /// A process environment variable, `$env.<NAME>`.
        case environment(String)
        /// An output of an earlier step, `$steps.<step>.outputs.<output>`.
        case stepOutput(step: String, output: String)
        /// The decoded body of the current step's response, `$response.body`.
        case responseBody
        /// A header of the current step's response, `$response.header.<Header-Name>`.
        ///
        /// The name keeps the spelling the workflow used; HTTP header names compare
        /// case-insensitively.
        case responseHeader(String)
        /// The HTTP status code of the current step's response, `$statusCode`.
        case statusCode
        /// The URL of the request the current step sent, `$url`: as the step built it (its server, path,
        /// query and the page a paginated step is at), before interceptors added to it, with credential-like
        /// query parameters and user-info as `***`.
        case url
        /// The current item of a `forEach` step, `$item`.
        case item
    }

    /// Offsets, in Unicode scalars from the `$`, of the parts a diagnostic may point at.
    ///
    /// For `$steps.user.outputs.id#/a` the step is at 7, the name at 20 and the pointer at 22.
    package struct Spans: Hashable, Sendable {
        /// The input, variable, environment or header name, or the output name of a step output.
        package var name: Int?
        /// The step id of a step output.
        package var step: Int?
        /// The `#` that starts the pointer.
        package var pointer: Int?

        /// Creates spans.
        ///
        /// - Parameters:
        ///   - name: The offset of the name.
        ///   - step: The offset of the step id.
        ///   - pointer: The offset of the `#`.
        package init(name: Int? = nil, step: Int? = nil, pointer: Int? = nil) {
            self.name = name
            self.step = step
            self.pointer = pointer
        }
    }

    /// The expression's parts, in one immutable object: the engine reads an expression (copying it out of the
    /// template, path part or binding that holds it) for every value it evaluates, and a copy of the parts
    /// themselves retained each string and array in them. A change makes a new object.
    private final class Storage: Sendable {
        let source: Source
        let pointer: JSONPointer?
        let spans: Spans
        let slot: OutputSlot?

        init(source: Source, pointer: JSONPointer?, spans: Spans, slot: OutputSlot?) {
            self.source = source
            self.pointer = pointer
            self.spans = spans
            self.slot = slot
        }
    }

    private var storage: Storage

    /// Where the value comes from.
    package var source: Source {
        get { storage.source }
        set { storage = Storage(source: newValue, pointer: pointer, spans: spans, slot: slot) }
    }
    /// The part of the source's value to read, or `nil` for the whole value.
    package var pointer: JSONPointer? {
        get { storage.pointer }
        set { storage = Storage(source: source, pointer: newValue, spans: spans, slot: slot) }
    }
    /// Offsets, in Unicode scalars from the `$`, of the parts a diagnostic may point at.
    package var spans: Spans {
        get { storage.spans }
        set { storage = Storage(source: source, pointer: pointer, spans: newValue, slot: slot) }
    }
    /// For a step output in a plan: where the run keeps its value, which the plan's lowering resolves once, so
    /// that evaluating the expression indexes instead of looking the step and output up by name. Not part of
    /// the expression's identity: an expression equals its unresolved text.
    var slot: OutputSlot? {
        get { storage.slot }
        set { storage = Storage(source: source, pointer: pointer, spans: spans, slot: newValue) }
    }

    package static func == (lhs: RuntimeExpression, rhs: RuntimeExpression) -> Bool {
        lhs.source == rhs.source && lhs.pointer == rhs.pointer && lhs.spans == rhs.spans
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(pointer)
        hasher.combine(spans)
    }

    /// Creates an expression, computing its spans from its canonical text.
    ///
    /// The parser accepts a pointer only after inputs, variables, step outputs and the response
    /// body; this initializer does not check that, but an expression built with a pointer on
    /// another source describes itself as text that does not parse.
    ///
    /// - Parameters:
    ///   - source: Where the value comes from.
    ///   - pointer: The part of the value to read, or `nil` for the whole value.
    package init(_ source: Source, pointer: JSONPointer? = nil) {
        let spans: Spans
        let prefixLength: Int
        switch source {
        case .input(let name):
            spans = Spans(name: 8)  // "$inputs."
            prefixLength = 8 + name.unicodeScalars.count
        case .variable(let name):
            spans = Spans(name: 6)  // "$vars."
            prefixLength = 6 + name.unicodeScalars.count
        case .environment(let name):
            spans = Spans(name: 5)  // "$env."
            prefixLength = 5 + name.unicodeScalars.count
        case .stepOutput(let step, let output):
            let stepLength = step.unicodeScalars.count
            spans = Spans(name: 7 + stepLength + 9, step: 7)  // "$steps." step ".outputs."
            prefixLength = 7 + stepLength + 9 + output.unicodeScalars.count
        case .responseBody:
            spans = Spans()
            prefixLength = 14  // "$response.body"
        case .responseHeader(let name):
            spans = Spans(name: 17)  // "$response.header."
            prefixLength = 17 + name.unicodeScalars.count
        case .statusCode:
            spans = Spans()
            prefixLength = 11  // "$statusCode"
        case .url:
            spans = Spans()
            prefixLength = 4  // "$url"
        case .item:
            spans = Spans()
            prefixLength = 5  // "$item"
        }
        var located = spans
        if pointer != nil { located.pointer = prefixLength }
        storage = Storage(source: source, pointer: pointer, spans: located, slot: nil)
    }

    /// Parses one whole runtime expression, such as `$steps.user.outputs.userId`.
    ///
    /// - Parameter text: The expression, starting with `$` and containing nothing else.
    /// - Throws: ``ExpressionSyntaxError`` when `text` is not exactly one valid expression.
    package init(parsing text: String) throws(ExpressionSyntaxError) {
        self = try ExpressionParser.parseExpression(text)
    }

    /// The canonical text of the expression, such as `$steps.user.outputs.userId#/a`.
    package var description: String {
        var text: String
        switch source {
        case .input(let name): text = "$inputs." + name
        case .variable(let name): text = "$vars." + name
        case .environment(let name): text = "$env." + name
        case .stepOutput(let step, let output): text = "$steps." + step + ".outputs." + output
        case .responseBody: text = "$response.body"
        case .responseHeader(let name): text = "$response.header." + name
        case .statusCode: text = "$statusCode"
        case .url: text = "$url"
        case .item: text = "$item"
        }
        if let pointer {
            text += "#" + pointer.description
        }
        return text
    }
}
