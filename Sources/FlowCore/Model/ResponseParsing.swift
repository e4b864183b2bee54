/// How a step reads its response bodies: `parse:` under its `response:`.
///
/// Without it, a body is read by its `Content-Type` (see ``BodyFormat``).
package enum ResponseParsing: Sendable, Hashable, CustomStringConvertible {
    /// One of the built-in formats, whatever the content type says: `parse: text`.
    case format(BodyFormat)
    /// A parser registered from Swift: `parse: { use: csv }`.
    case parser(String)

    /// The declaration as written: `text`, or `{ use: csv }`.
    package var description: String {
        switch self {
        case .format(let format): format.rawValue
        case .parser(let name): "{ use: \(name) }"
        }
    }
}
