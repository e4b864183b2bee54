extension WorkflowDecoder {
    /// Decodes `env:`: a mapping from variable name to `{ secret, default, description }` (or nothing).
    mutating func environment(_ node: YAMLNode) -> [EnvironmentVariable] {
        entries(node, "'env'").compactMap { entry in
            let name = entry.name.value
            guard let first = name.unicodeScalars.first, first.isASCIILetter || first == "_",
                name.unicodeScalars.allSatisfy({ $0.isASCIILetter || ("0"..."9").contains($0) || $0 == "_" })
            else {
                diagnostics.append(Diagnostic(
                    .error, .invalidValue,
                    "'\(name)' is not a valid environment variable name: use letters, digits and '_', "
                        + "starting with a letter or '_'",
                    at: entry.name.location))
                return nil
            }
            var variable = EnvironmentVariable(name: entry.name)
            // `NAME:` with nothing after it declares a required, non-secret variable, like `NAME: {}`.
            if entry.value.scalar?.value == .null { return variable }
            guard let fields = reader(entry.value, "environment variable '\(name)'", ["secret", "default", "description"])
            else { return variable }
            if let node = fields["secret"] { variable.secret = bool(node, "'secret'") ?? false }
            if let node = fields["default"] { variable.defaultValue = string(node, "'default'")?.value }
            if let node = fields["description"] { variable.description = string(node, "'description'")?.value }
            return variable
        }
    }
}
