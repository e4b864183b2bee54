extension Exchange {
    /// The exchange as it may be shown or stored, with ``redactor``'s secrets removed: URLs as
    /// ``SecretRedactor/redact(url:)`` leaves them; the values of credential header fields (`Authorization`,
    /// `Cookie`, `Set-Cookie`, `X-Api-Key`, …) replaced by `***` whatever they hold, keeping a scheme
    /// (`Bearer ***`); every secret, and its encoded forms, replaced by `***` in every other header value, in
    /// both bodies and in the error.
    ///
    /// A body that is not UTF-8 text is searched byte by byte, so an ASCII secret inside a binary body is
    /// replaced too.
    public func redacted() -> Exchange {
        var copy = self
        copy.request = Self.redact(request, by: redactor)
        if var response {
            response.headers = Self.redact(response.headers, by: redactor)
            response.body = Self.redact(body: response.body, by: redactor)
            response.redirects = response.redirects.map {
                StepResponse.Redirect(status: $0.status, url: redactor.redact(url: $0.url))
            }
            copy.response = response
        }
        copy.error = error.map { redactor.redact($0) }
        return copy
    }

    private static func redact(_ request: StepRequest, by redactor: SecretRedactor) -> StepRequest {
        var request = request
        request.url = redactor.redact(url: request.url)
        request.headers = redact(request.headers, by: redactor)
        request.body = request.body.map { redact(body: $0, by: redactor) }
        return request
    }

    private static func redact(_ headers: HeaderFields, by redactor: SecretRedactor) -> HeaderFields {
        HeaderFields(headers.map { field in
            var value = SecretRedactor.redact(headerValue: field.value, named: field.name)
            // URLs a server gives back, such as a paginated list's next page: redacted as the request's URL is,
            // or the `access_token` that `?access_token=***` hides in the next page's request line shows here.
            if HeaderFields.namesMatch(field.name, "Location")
                || HeaderFields.namesMatch(field.name, "Content-Location")
            {
                value = URLRedaction.redact(value)
            } else if HeaderFields.namesMatch(field.name, "Link") {
                value = redactLinkTargets(value)
            }
            return HeaderFields.Field(name: field.name, value: redactor.redact(value))
        })
    }

    /// A `Link` field's value with each `<target>` redacted as a URL.
    private static func redactLinkTargets(_ value: String) -> String {
        guard value.contains("?") || value.contains("@") else { return value }
        var result = ""
        var rest = value[...]
        while let open = rest.firstIndex(of: "<"), let close = rest[open...].firstIndex(of: ">") {
            result += rest[...open]
            result += URLRedaction.redact(String(rest[rest.index(after: open)..<close]))
            rest = rest[close...]
        }
        return result + rest
    }

    /// `body` with every secret replaced: as text when it is UTF-8, else byte for byte (each byte read as the
    /// Unicode scalar of the same number, so ASCII secrets match and every other byte is kept as it is).
    private static func redact(body: [UInt8], by redactor: SecretRedactor) -> [UInt8] {
        if body.isEmpty { return body }
        if let text = String(validating: body, as: UTF8.self) {
            let redacted = redactor.redact(text)
            return redacted == text ? body : Array(redacted.utf8)
        }
        var scalars = String.UnicodeScalarView()
        scalars.append(contentsOf: body.map { Unicode.Scalar($0) })
        let text = String(scalars)
        let redacted = redactor.redact(text)
        return redacted == text ? body : redacted.unicodeScalars.map { UInt8(truncatingIfNeeded: $0.value) }
    }
}
