/// The Arazzo front end's checks of one document: decoding, then the references across it.
package enum ArazzoCheck {
    /// Decodes and checks the document whose root node is `root`.
    /// - Returns: The document (with what could not be decoded left out) and every finding, in document order.
    package static func check(_ root: YAMLNode, path: String) -> (document: ArazzoDocument, diagnostics: [Diagnostic]) {
        check(root, path: path, operations: nil)
    }

    /// Decodes and checks the document, and with `operations` (the compilation's file loader, an OpenAPI reader and
    /// local copies of sources by name) also the operations its steps call (``ArazzoOperationCheck``).
    static func check(
        _ root: YAMLNode, path: String,
        operations: (loader: SubWorkflowLoader, read: OperationSourceLoader, copies: [String: String])?
    ) -> (document: ArazzoDocument, diagnostics: [Diagnostic]) {
        var decoder = ArazzoDecoder()
        let document = decoder.decode(root, path: path)
        var references = ArazzoReferenceCheck(document)
        references.check(decoder.expressionUses)
        var found = decoder.diagnostics + references.diagnostics
        if let operations {
            var check = ArazzoOperationCheck(
                document, uses: decoder.expressionUses, loader: operations.loader, read: operations.read,
                copies: operations.copies)
            check.check()
            found += check.diagnostics
        }
        return (document, Diagnostic.sortedByLocation(found))
    }
}
