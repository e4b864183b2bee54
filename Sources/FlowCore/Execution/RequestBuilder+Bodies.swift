/// The request bodies that are not JSON or a form: `text:` and `multipart:`.
extension RequestBuilder {
    /// The content type of a `text:` body that names none.
    static let defaultTextContentType = "text/plain; charset=utf-8"

    /// Sets a `text:` body: the value's text as UTF-8, with its content type unless a header set one.
    func setTextBody(
        _ template: ValueTemplate, contentType: Located<String>?, on request: inout StepRequest, in scope: RunScope
    ) throws(FlowError) {
        request.body = Array(try scope.evaluateText(template).utf8)
        if request.headers["Content-Type"] == nil {
            request.headers.set("Content-Type", contentType?.value ?? Self.defaultTextContentType)
        }
    }

    /// Sets a `multipart:` body (RFC 7578) with a fresh random boundary; a part whose value is `null` is left out.
    ///
    /// The `Content-Type` always names the boundary, so it replaces one a header declared.
    func setMultipartBody(
        _ parts: [MultipartPart], of planned: PlannedStep, on request: inout StepRequest, in scope: RunScope
    ) throws(FlowError) {
        var encoded: [MultipartFormData.Part] = []
        for part in parts {
            let label = "multipart part '\(part.name.value)' of step '\(planned.id)'"
            var filename = try part.filename.map { template throws(FlowError) in try scope.evaluateText(template) }
            var contentType = part.contentType?.value
            let body: [UInt8]
            switch part.content {
            case .value(let template):
                let value = try scope.evaluate(template)
                switch value {
                case .null:
                    continue  // Left out, as a null form field or query parameter is.
                case .object, .array:
                    body = value.serializedBytes()
                    contentType = contentType ?? "application/json"
                default:
                    body = Array(value.interpolationText.utf8)
                }
            case .file(let template, let location):
                let path = try scope.evaluateText(template)
                switch MultipartFormData.readFile(path, workflowPath: plan.workflow.path) {
                case .success(let bytes): body = bytes
                case .failure(let problem):
                    throw FlowError(.binding, "\(label): \(problem.message)", at: location)
                }
                filename = filename ?? path.split(separator: "/").last.map(String.init)
                contentType = contentType ?? BodyFormat.defaultBytesContentType
            }
            encoded.append(MultipartFormData.Part(
                name: part.name.value, filename: filename, contentType: contentType, body: body))
        }
        let (body, contentType) = MultipartFormData.encode(encoded)
        request.body = body
        request.headers.set("Content-Type", contentType)
    }
}
