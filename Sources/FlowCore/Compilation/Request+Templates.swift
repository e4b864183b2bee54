extension RequestBody {
    /// Every template of the body, in file order: the JSON value, the form fields, the text, or each multipart
    /// part's value or file path and file name.
    var templates: [ValueTemplate] {
        switch self {
        case .json(let template, _): [template]
        case .form(let fields, _): fields.map(\.value)
        case .text(let template, _, _): [template]
        case .multipart(let parts, _):
            parts.flatMap { part -> [ValueTemplate] in
                let content: ValueTemplate =
                    switch part.content {
                    case .value(let template), .file(let template, _): template
                    }
                return [content] + (part.filename.map { [$0] } ?? [])
            }
        }
    }
}

extension Request {
    /// Every template of the request: its path, query, headers and body.
    var templates: [ValueTemplate] {
        [path] + query.map(\.value) + headers.map(\.value) + (body?.templates ?? [])
    }
}
