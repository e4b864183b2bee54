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
        case .string(let text) where text.count >= 4:
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

    /// `text` with every secret replaced by `***`.
    func redact(_ text: String) -> String {
        let list = secrets.withLock { $0 }
        var result = text
        // The byte check first: `contains` costs about a microsecond even when there is nothing to find.
        for secret in list where !ASCIISearch.certainlyAbsent(secret, in: result) && result.contains(secret) {
            result = result.replacing(secret, with: "***")
        }
        return result
    }

    /// `value` with every secret string inside replaced by `***`.
    func redact(_ value: JSONValue) -> JSONValue {
        switch value {
        case .string(let text): .string(redact(text))
        case .array(let elements): .array(elements.map { redact($0) })
        case .object(let members): .object(members.mapValues { redact($0) })
        default: value
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
