import Foundation

/// Checks of the bodies that are not JSON: `text:` and `multipart:` requests, and `parse:` on responses.
extension CompilationSession {
    /// Checks a `multipart:` body: each part's bindings, and that a file written as a literal path exists in
    /// the workflow file's folder.
    mutating func checkMultipart(_ parts: [MultipartPart], in context: BindingContext) {
        for part in parts {
            switch part.content {
            case .value(let template):
                _ = checkTemplate(template, in: context, placement: .value, at: part.name.location)
            case .file(let template, let location):
                _ = checkTemplate(template, in: context, placement: .scalar("a file path"), at: location)
                guard case .literal(.string(let path)) = template else { continue }
                let problem: String? =
                    switch MultipartFormData.resolveFile(path, workflowPath: workflow.path) {
                    case .success(let file):
                        FileManager.default.fileExists(atPath: file) ? nil : "'\(path)' does not exist (looked for \(file))"
                    case .failure(let problem): problem.message
                    }
                if let problem {
                    error(.invalidValue, "the file of multipart part '\(part.name.value)': \(problem)", at: location)
                }
            }
            if let filename = part.filename {
                _ = checkTemplate(filename, in: context, placement: .scalar("a file name"), at: part.name.location)
            }
        }
    }

    /// Checks that `parse:` gives what the step's success types declare: a string for `text`, an object for
    /// `form` and `bytes`. A parser's value is checked at run time.
    mutating func checkResponseParsing(_ step: Step) {
        guard let parse = step.parse, case .format(let format) = parse.value else { return }
        let produced: JSONSchema.TypeName
        switch format {
        case .json: return
        case .text: produced = .string
        case .form, .bytes: produced = .object
        }
        for response in step.responses where response.status.value.isSuccess {
            guard let schema = navigator.resolve(response.schema), let types = schema.types,
                !types.contains(produced)
            else { continue }
            error(.bindingTypeMismatch,
                  "'parse: \(format.rawValue)' reads the body as \(produced == .string ? "a string" : "an object"), "
                      + "but status \(response.status.value) of step '\(step.id.value)' declares "
                      + navigator.describe(response.schema),
                  at: parse.location)
        }
    }
}
