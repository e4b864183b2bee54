/// Sets and removes header fields: the `headers:` / `removeHeaders:` interceptor kind. It sets first, then
/// removes, as docs/workflow-format.md says: a name that is in both is not sent.
struct HeaderSettingInterceptor: Interceptor {
    let set: [Binding]
    let remove: [String]
    let scope: RunScope

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        var request = request
        for binding in set {
            let value = try scope.evaluateText(binding.value)
            try RequestBuilder.checkHeaderValue(value, name: binding.name.value)
            request.headers.set(binding.name.value, value)
        }
        for name in remove { request.headers.remove(name) }
        return try await next(request, context)
    }
}

/// Sets a credential header — `Authorization: Bearer …`, `Authorization: Basic …` or an API-key header — and
/// records the credential as a secret so it never appears in logs or reports.
struct CredentialHeaderInterceptor: Interceptor {
    /// How the header value is made from the evaluated credential parts.
    enum Scheme: Sendable {
        case bearer(ValueTemplate)
        case basic(username: ValueTemplate, password: ValueTemplate)
        case raw(header: String, value: ValueTemplate)
    }

    let scheme: Scheme
    let scope: RunScope
    let redactor: SecretRedactor

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        var request = request
        let header: String
        let value: String
        switch scheme {
        case .bearer(let token):
            let text = try scope.evaluateText(token)
            redactor.add(.string(text))
            (header, value) = ("Authorization", "Bearer \(text)")
        case .basic(let username, let password):
            let user = try scope.evaluateText(username)
            let secret = try scope.evaluateText(password)
            redactor.add(.string(secret))
            let encoded = Base64.encode(Array("\(user):\(secret)".utf8))
            redactor.add(.string(encoded))
            (header, value) = ("Authorization", "Basic \(encoded)")
        case .raw(let name, let template):
            let text = try scope.evaluateText(template)
            redactor.add(.string(text))
            (header, value) = (name, text)
        }
        try RequestBuilder.checkHeaderValue(value, name: header)
        request.headers.set(header, value)
        return try await next(request, context)
    }
}

/// Appends query parameters: the `query:` kind, and `apiKey: { query: … }` (whose value is a secret).
struct QueryParameterInterceptor: Interceptor {
    let parameters: [Binding]
    let secret: Bool
    let scope: RunScope
    let redactor: SecretRedactor

    func intercept(
        _ request: StepRequest, context: StepContext,
        next: (StepRequest, StepContext) async throws -> StepResponse
    ) async throws -> StepResponse {
        var request = request
        var pairs: [String] = []
        for parameter in parameters {
            let value = try scope.evaluateText(parameter.value)
            if secret { redactor.add(.string(value)) }
            pairs.append(
                URLEncoding.percentEncodeQueryComponent(parameter.name.value) + "="
                    + URLEncoding.percentEncodeQueryComponent(value))
        }
        if !pairs.isEmpty {
            request.url += (ASCIISearch.contains("?", in: request.url) ? "&" : "?") + pairs.joined(separator: "&")
        }
        return try await next(request, context)
    }
}
