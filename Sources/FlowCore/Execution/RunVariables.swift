import Synchronization

/// The workflow's `vars` during one run: read by every step, updated by `set`.
///
/// Steps run concurrently and a refresh may update a token while other steps
/// read it, so this is the one piece of per-run state shared across tasks,
/// behind a `Mutex`.
final class RunVariables: Sendable {
    private let values: Mutex<[String: JSONValue]>

    init(_ initial: [String: JSONValue]) {
        values = Mutex(initial)
    }

    subscript(name: String) -> JSONValue? {
        values.withLock { $0[name] }
    }

    func set(_ name: String, _ value: JSONValue) {
        values.withLock { $0[name] = value }
    }

    var snapshot: [String: JSONValue] {
        values.withLock { $0 }
    }
}

/// The secret strings of a run, and their removal from any text that leaves the engine.
///
/// Secrets are the values of inputs with `format: password`, every value ever
/// held by a var initialised from a secret, and the credentials that
/// interceptors send. They are replaced by `***` in error messages, reports
/// and logs.
final class SecretRedactor: Sendable {
    private let secrets: Mutex<[String]>

    init() { secrets = Mutex([]) }

    /// Adds the strings inside `value` as secrets; short strings (under 4 characters) are ignored,
    /// since redacting them would mangle ordinary text.
    func add(_ value: JSONValue) {
        switch value {
        case .string(let text) where Self.isLongEnough(text):
            secrets.withLock { list in
                if !list.contains(text) {
                    list.append(text)
                    list.sort { $0.count > $1.count }  // Longest first, so a secret's prefix never leaks.
                }
            }
        case .array(let elements): elements.forEach(add)
        case .object(let members): members.values.forEach(add)
        default: break
        }
    }

    /// Whether `text` has at least 4 characters; the bytes answer for ASCII text, where every byte
    /// but a CR before an LF is a character, so the Character count is rarely needed.
    private static func isLongEnough(_ text: String) -> Bool {
        let bytes = text.utf8
        if bytes.count < 4 { return false }  // A character has at least one byte.
        if !ASCIISearch.containsByte(in: text, where: { $0 >= 0x80 || $0 == UInt8(ascii: "\r") }) { return true }
        return text.count >= 4
    }

    /// `text` with every secret replaced by `***`.
    func redact(_ text: String) -> String {
        Self.redacted(text, removing: secrets.withLock { $0 }) ?? text
    }

    /// `text` with every secret in `list` replaced by `***`, or `nil` when it contains none.
    private static func redacted(_ text: String, removing list: [String]) -> String? {
        var result: String?
        // The byte check first: `contains` costs about a microsecond even when there is nothing to find.
        for secret in list {
            let current = result ?? text
            if !ASCIISearch.certainlyAbsent(secret, in: current) && current.contains(secret) {
                result = current.replacing(secret, with: "***")
            }
        }
        return result
    }

    /// `value` with every secret string inside replaced by `***`.
    func redact(_ value: JSONValue) -> JSONValue {
        let list = secrets.withLock { $0 }
        if list.isEmpty { return value }
        return Self.redacted(value, removing: list) ?? value
    }

    /// `value` with the secrets in `list` replaced, or `nil` when it holds none, so that a value
    /// without secrets (nearly every one) is returned as it is rather than rebuilt.
    private static func redacted(_ value: JSONValue, removing list: [String]) -> JSONValue? {
        switch value {
        case .string(let text):
            return redacted(text, removing: list).map { .string($0) }
        case .array(let elements):
            for index in elements.indices {
                guard let first = redacted(elements[index], removing: list) else { continue }
                var result = elements
                result[index] = first
                for later in elements.indices[(index + 1)...] {
                    if let changed = redacted(elements[later], removing: list) { result[later] = changed }
                }
                return .array(result)
            }
            return nil
        case .object(let members):
            var result: [String: JSONValue]?
            for (name, member) in members {
                guard let changed = redacted(member, removing: list) else { continue }
                if result == nil { result = members }
                result![name] = changed
            }
            return result.map { .object($0) }
        default:
            return nil
        }
    }

    /// An error with its message, request and response excerpt redacted.
    func redact(_ error: FlowError) -> FlowError {
        var error = error
        error.message = redact(error.message)
        error.request = error.request.map { redact($0) }
        error.responseExcerpt = error.responseExcerpt.map { redact($0) }
        return error
    }
}
