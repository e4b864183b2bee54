/// The Arazzo front end's checks of one document: decoding, then the references across it.
package enum ArazzoCheck {
    /// Decodes and checks the document whose root node is `root`.
    /// - Returns: The document (with what could not be decoded left out) and every finding, in document order.
    package static func check(_ root: YAMLNode, path: String) -> (document: ArazzoDocument, diagnostics: [Diagnostic]) {
        var decoder = ArazzoDecoder()
        let document = decoder.decode(root, path: path)
        var references = ArazzoReferenceCheck(document)
        references.check(decoder.expressionUses)
        return (document, Diagnostic.sortedByLocation(decoder.diagnostics + references.diagnostics))
    }
}
