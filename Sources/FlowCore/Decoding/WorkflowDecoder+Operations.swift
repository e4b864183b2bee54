/// Decoding of `openapi:` and of a step's `operation:`, `parameters:` and body.
extension WorkflowDecoder {
    /// `openapi: { bank: ./bank.openapi.yaml }`.
    mutating func openAPISources(_ node: YAMLNode) -> [OpenAPISource] {
        entries(node, "'openapi'").compactMap { entry in
            // `bank: ./bank.openapi.yaml`, or `bank: { path: ./bank.openapi.yaml, security: { … } }`.
            var pathNode = entry.value
            var security: [Binding] = []
            if entry.value.mapping != nil {
                guard let fields = reader(entry.value, "OpenAPI document '\(entry.name.value)'", ["path", "security"],
                                          required: ["path"]),
                    let written = fields["path"]
                else { return nil }
                pathNode = written
                if let node = fields["security"] {
                    security = bindings(node, "'security' of OpenAPI document '\(entry.name.value)'", names: .free)
                }
            }
            guard let path = string(pathNode, "the path of OpenAPI document '\(entry.name.value)'") else {
                return nil
            }
            if entry.name.value.contains(".") || entry.name.value.contains("#") {
                diagnostics.append(Diagnostic(
                    .error, .invalidValue,
                    "an OpenAPI source name cannot contain '.' or '#', which separate it from the operation in "
                        + "'operation: <source>.<operationId>'",
                    at: entry.name.location))
            }
            if path.value.isEmpty {
                report(.invalidValue, "the path of OpenAPI document '\(entry.name.value)' is empty", pathNode)
                return nil
            }
            var source = OpenAPISource(name: entry.name, path: path)
            source.security = security
            return source
        }
    }

    /// A step's `operation:` with its `parameters:` and body.
    mutating func operationCall(_ fields: MappingReader, _ node: YAMLNode, stepID: String) -> OperationCall? {
        guard let reference = string(node, "'operation'") else { return nil }
        var call = OperationCall(reference: reference, parameters: [], parametersLocation: node.location)
        if call.parts == nil {
            report(.invalidValue,
                   "expected 'operation' to name an OpenAPI source and one of its operations, as "
                       + "'<source>.<operationId>' or '<source>#/paths/<path>/<method>', found '\(reference.value)'",
                   node)
            return nil
        }
        if let parameters = fields["parameters"] {
            call.parameters = bindings(parameters, "the parameters of step '\(stepID)'", names: .free)
            call.parametersLocation = parameters.location
        }
        call.body = requestBody(fields)
        return call
    }
}
