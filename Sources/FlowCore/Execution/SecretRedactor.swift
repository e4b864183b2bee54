import Synchronization

/// The one redaction type of flowrun: removes a run's secrets from every URL, header, body, message,
/// report, span and log line that leaves the engine or a dispatcher.
///
/// It knows two kinds of secret:
///
/// - The literal secrets of a run: the values of inputs with `format: password`, every value ever held by
///   a var initialised from a secret or sent by an interceptor as a credential, and the credentials that
///   interceptors send. Each is also matched in
///   the forms a server echoes it back in: percent- and form-encoded, JSON-escaped and base64 (standard and URL-safe,
///   with and without padding). All of them are replaced by `***`. A secret under 4 characters is replaced
///   only where a whole value equals it (see ``redactWholeValues(_:)``), since masking every occurrence of
///   `a` would destroy all text.
/// - Credential-shaped parts of a URL, whatever their value: user info (`user:pw@`) and the values of query
///   parameters whose names look like credentials (`api_key`, `access_token`, `sig`, …); see
///   ``redact(url:)``.
///
/// The engine makes one per run, registers every secret it can know of before the first request (see
/// ``register(secretsOf:in:)``), and hands it to dispatchers and interceptors in ``StepContext/redactor``,
/// so FlowHTTP's log lines and errors redact exactly what the engine's reports do.
public final class SecretRedactor: Sendable {
    /// The replacement for a secret.
    public static let replacement = "***"

    /// The secrets and their encoded forms, longest first so that a secret's prefix never leaks.
    private let secrets: Mutex<[String]>
    /// The secrets as added, so that adding a known one again (an interceptor does at every request) costs a
    /// lookup, not the encodings.
    let added: Mutex<Set<String>>
    /// The secrets under 4 characters and their encoded forms, replaced only as whole values.
    let shortSecrets: Mutex<[String]>
    /// Whether a secret has been added: until one is, every redaction returns what it is given without taking
    /// a lock (most runs declare no secret, and their reports and URLs are redacted all the same). Set after the
    /// secret is in its list, so a redaction that sees it set finds the secret.
    let knowsSecrets = Atomic<Bool>(false)

    /// Creates a redactor that knows no literal secret yet.
    public init() {
        secrets = Mutex([])
        added = Mutex([])
        shortSecrets = Mutex([])
    }

    /// Adds the strings inside `value`, and their encoded forms, as secrets.
    ///
    /// Short strings (under 4 characters) are replaced only where a whole value equals them
    /// (``redactWholeValues(_:)``), since replacing every occurrence would mangle ordinary text.
    /// - Parameter value: A string, or an array or object whose strings are all secrets.
    public func add(_ value: JSONValue) {
        switch value {
        case .string(let text) where !text.isEmpty:
            guard Self.isLongEnough(text) else { return addShort(text) }
            guard added.withLock({ $0.insert(text).inserted }) else { return }
            let forms = Self.encodedForms(of: text)
            secrets.withLock { list in
                let missing = forms.filter { !list.contains($0) }
                if missing.isEmpty { return }
                list.append(contentsOf: missing)
                list.sort { $0.utf8.count > $1.utf8.count }
            }
            knowsSecrets.store(true, ordering: .releasing)
        case .array(let elements): elements.forEach(add)
        case .object(let members): members.values.forEach(add)
        default: break
        }
    }

    /// `text` and the forms servers echo it back in: percent-encoded (as in a query, a path or a form),
    /// JSON-escaped (with and without escaped slashes), and base64, standard and URL-safe, with and without
    /// padding.
    static func encodedForms(of text: String) -> [String] {
        var forms = [text]
        func insert(_ form: String) {
            if Self.isLongEnough(form) && !forms.contains(form) { forms.append(form) }
        }
        // Letters, digits, `-`, `.` and `_` (most tokens) are the same in every encoding but base64.
        let plain = !ASCIISearch.containsByte(in: text) { byte in
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"):
                false
            default: true
            }
        }
        if !plain { escapedForms(of: text).forEach(insert) }
        // The padded form is not a form of its own (each form costs a search in every redaction): its unpadded
        // prefix matches, and `redacted` drops the `=` that follow a replacement.
        let unpadded = Base64.encodeUnpadded(Array(text.utf8))
        insert(unpadded)
        if unpadded.utf8.contains(where: { $0 == UInt8(ascii: "+") || $0 == UInt8(ascii: "/") }) {
            insert(Base64URL.encode(Array(text.utf8)))
        }
        return forms
    }

    /// `text` as a query, a path, a form and a JSON string carry it: percent-encoded (query and path rules),
    /// form-encoded, and JSON-escaped with and without escaped slashes. Each may equal `text`.
    static func escapedForms(of text: String) -> [String] {
        let escaped = String(JSONValue.string(text).serialized().dropFirst().dropLast())
        return [
            URLEncoding.percentEncodeQueryComponent(text), URLEncoding.percentEncodePathSegment(text),
            String(URLEncoding.formURLEncode([("", text)]).dropFirst()), escaped, escaped.replacing("/", with: "\\/"),
        ]
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
    public func redact(_ text: String) -> String {
        guard knowsSecrets.load(ordering: .acquiring) else { return text }
        let redacted = Self.redacted(text, removing: secrets.withLock { $0 }) ?? text
        return redactWholeValues(redacted)
    }

    /// `url` with its user info and the values of credential-like query parameters replaced
    /// (``URLRedaction``), and every secret replaced by `***`.
    ///
    /// A query parameter that an interceptor added with a secret value stays in the URL, its value
    /// redacted: `?appid=***`.
    public func redact(url: String) -> String {
        redact(URLRedaction.redact(url))
    }

    /// `text` with every secret in `list` replaced by `***`, or `nil` when it contains none.
    private static func redacted(_ text: String, removing list: [String]) -> String? {
        var result: String?
        // The byte check first: `contains` costs about a microsecond even when there is nothing to find. Before
        // it, the lengths: most strings a report holds (ids, amounts, names) are shorter than any secret's form.
        let length = text.utf8.count
        for secret in list where secret.utf8.count <= length {
            let current = result ?? text
            if !ASCIISearch.certainlyAbsent(secret, in: current) && current.contains(secret) {
                result = current.replacing(secret, with: replacement)
            }
        }
        // Base64 padding after a redacted secret.
        if let changed = result, changed.contains(replacement + "=") {
            result = changed.replacing(replacement + "==", with: replacement)
                .replacing(replacement + "=", with: replacement)
        }
        return result
    }

    /// `value` with every secret string inside replaced by `***`.
    public func redact(_ value: JSONValue) -> JSONValue {
        guard knowsSecrets.load(ordering: .acquiring) else { return value }
        let list = secrets.withLock { $0 }
        let short = shortSecrets.withLock { $0 }
        if list.isEmpty && short.isEmpty { return value }
        return Self.redacted(value, removing: list, short: short) ?? value
    }

    /// `values` with every secret replaced, or `nil` when they hold none (nearly always), so that they are kept
    /// as they are rather than copied.
    func redacted(_ values: [JSONValue?]) -> [JSONValue?]? {
        guard knowsSecrets.load(ordering: .acquiring) else { return nil }
        let list = secrets.withLock { $0 }
        let short = shortSecrets.withLock { $0 }
        if list.isEmpty && short.isEmpty { return nil }
        var result: [JSONValue?]?
        for index in values.indices {
            guard let value = values[index], let changed = Self.redacted(value, removing: list, short: short) else {
                continue
            }
            if result == nil { result = values }
            result![index] = changed
        }
        return result
    }

    /// `value` with the secrets in `list` replaced, or `nil` when it holds none, so that a value
    /// without secrets (nearly every one) is returned as it is rather than rebuilt.
    private static func redacted(_ value: JSONValue, removing list: [String], short: [String]) -> JSONValue? {
        switch value {
        case .string(let text):
            let long = redacted(text, removing: list)
            let whole = wholeValuesRedacted(long ?? text, removing: short)
            return (whole ?? long).map { .string($0) }
        case .array(let elements):
            for index in elements.indices {
                guard let first = redacted(elements[index], removing: list, short: short) else { continue }
                var result = elements
                result[index] = first
                for later in elements.indices[(index + 1)...] {
                    if let changed = redacted(elements[later], removing: list, short: short) {
                        result[later] = changed
                    }
                }
                return .array(result)
            }
            return nil
        case .object(let members):
            var result: [String: JSONValue]?
            for (name, member) in members {
                guard let changed = redacted(member, removing: list, short: short) else { continue }
                if result == nil { result = members }
                result![name] = changed
            }
            return result.map { .object($0) }
        default:
            return nil
        }
    }

    /// An error with its message, request and response excerpt redacted.
    public func redact(_ error: FlowError) -> FlowError {
        var error = error
        error.message = redact(error.message)
        error.request = error.request.map { redact($0) }
        error.responseExcerpt = error.responseExcerpt.map { redact($0) }
        return error
    }
}
