/// The rules that make a value a credential by the name it is sent under, whatever the value: for outputs
/// that show requests a run's redactor never saw (a test's diff, `flowrun mock serve`'s record and 404s).
extension SecretRedactor {
    /// The header fields whose values are credentials, lower-cased: `authorization`, `cookie`, `x-api-key`, ….
    public static let credentialHeaderNames: Set<String> = [
        "authorization", "proxy-authorization", "cookie", "set-cookie", "x-api-key", "api-key", "x-auth-token",
    ]

    /// A header value as an output may show it: a credential field's value replaced by `***`, keeping its scheme
    /// (`Bearer ***`), so that a secret too short for a redactor (`t-1`) does not show either.
    ///
    /// ```swift
    /// SecretRedactor.redact(headerValue: "Bearer t-1", named: "Authorization")  // "Bearer ***"
    /// SecretRedactor.redact(headerValue: "gzip", named: "Accept-Encoding")      // "gzip"
    /// ```
    /// - Parameters:
    ///   - value: The field's value.
    ///   - name: The field's name, in any case.
    /// - Returns: The value, or its redacted form when the field is one of ``credentialHeaderNames``.
    public static func redact(headerValue value: String, named name: String) -> String {
        guard credentialHeaderNames.contains(name.lowercased()) else { return value }
        if let space = value.firstIndex(of: " "), value[..<space].allSatisfy(\.isLetter) {
            return value[..<space] + " " + replacement
        }
        return replacement
    }

    /// Whether a query parameter named `name` carries a credential by its name alone (`api_key`, `access_token`,
    /// `client_secret`, `sig`, …): the parameters whose values ``redact(url:)`` replaces.
    /// - Parameter name: The parameter's name, decoded.
    /// - Returns: `true` when its values must not be shown.
    public static func isCredentialParameter(_ name: String) -> Bool {
        URLRedaction.isSecretName(name[...])
    }
}
