/// A type that reads a response body that none of the built-in formats reads, such as CSV.
///
/// A step chooses a parser by name with `parse: { use: <name> }` under its
/// `response:`; a Swift program registers parsers in a ``ResponseParserRegistry``
/// and hands it to the ``Engine``. The value the parser returns is what
/// `$response.body` reads, and it is checked against the type the step declares
/// for the status, like any other body.
///
/// ```swift
/// struct CSVParser: ResponseParser {
///     func parse(_ response: StepResponse) throws -> JSONValue {
///         let lines = String(decoding: response.body, as: UTF8.self).split(separator: "\n")
///         return .array(lines.map { .array($0.split(separator: ",").map { .string(String($0)) }) })
///     }
/// }
///
/// var engine = Engine(dispatchers: dispatchers, logger: logger)
/// engine.parsers.register(CSVParser(), as: "csv")
/// ```
///
/// A run whose plan names a parser that is not registered fails before its
/// first request, with code ``FlowError/Code/unknownReference``.
///
/// ## Choose between a parser and the built-in formats
///
/// `parse: json | text | form | bytes` (see ``BodyFormat``) covers a server that
/// sends a wrong `Content-Type`; write a parser when the body needs reading into
/// structure that none of them gives.
public protocol ResponseParser: Sendable {
    /// Reads the body of `response`.
    ///
    /// The parser is called for every response of the step, success or not; a failed
    /// response that it cannot read is read by its content type instead.
    /// - Parameter response: The response, after the step's interceptors.
    /// - Returns: The value bindings read as `$response.body`.
    /// - Throws: Any error when the body cannot be read; the step then fails with code ``FlowError/Code/decode``.
    func parse(_ response: StepResponse) throws -> JSONValue
}
