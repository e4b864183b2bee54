public import FlowCore

extension WorkflowCompiler {
    /// A copy of this compiler that reads the OpenAPI 3.0 and 3.1 documents a workflow declares under `openapi:`,
    /// so that its steps can call their operations with `operation:`.
    ///
    /// ```swift
    /// let result = WorkflowCompiler().withOpenAPI().check(yaml: text, path: "flows/users.yaml")
    /// ```
    ///
    /// Documents are read with ``readFile`` (relative to the workflow file) and within ``loaderLimits``.
    /// - Returns: The compiler, with an OpenAPI loader.
    public func withOpenAPI() -> WorkflowCompiler {
        var compiler = self
        let limits = loaderLimits
        compiler.operationSourceLoader = { bytes, path, prefix in
            OpenAPIDocumentLoader(limits: limits).load(bytes, path: path, typePrefix: prefix)
        }
        return compiler
    }
}
