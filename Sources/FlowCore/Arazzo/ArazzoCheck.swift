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
        let checked = checkForLowering(root, path: path, operations: operations)
        return (checked.document, checked.diagnostics)
    }

    /// The operation a step calls, as its source's document describes it.
    struct ResolvedOperation {
        /// The source's name.
        var source: String
        /// The operation's JSON pointer in the source's document: `/paths/~1pets/get`.
        var pointer: String
        /// Its method, upper-case.
        var method: String
        /// The first content type its request body takes.
        var contentType: String?
    }

    /// An `arazzo` source of a document: another Arazzo document whose workflows its steps, `dependsOn` and actions
    /// may name as `$sourceDescriptions.<name>.<workflowId>`.
    struct ArazzoSource {
        /// The path a call of one of its workflows names: the source's `url` as written, relative to the calling
        /// document, or the absolute path of its local copy (`--source`).
        var callPath: String
        /// The document.
        var document: ArazzoDocument
    }

    /// What checking a document found, with what lowering one of its workflows needs.
    struct Checked {
        var document: ArazzoDocument
        var diagnostics: [Diagnostic]
        /// The operation each step calls, as ``ArazzoOperationCheck/resolved`` gives it.
        var operations: [String: ResolvedOperation] = [:]
        /// The absolute path of each readable source's document, by source name.
        var sourcePaths: [String: String] = [:]
        /// flowrun's specification extensions in the document.
        var extensions: ArazzoExtensions
        /// The `arazzo` sources that could be read, by source name.
        var arazzoSources: [String: ArazzoSource] = [:]
    }

    /// Checks the document as ``check(_:path:operations:)`` does, keeping the operations its steps resolved to.
    static func checkForLowering(
        _ root: YAMLNode, path: String,
        operations: (loader: SubWorkflowLoader, read: OperationSourceLoader, copies: [String: String])?
    ) -> Checked {
        var decoder = ArazzoDecoder()
        let document = decoder.decode(root, path: path)
        var references = ArazzoReferenceCheck(document)
        references.check(decoder.expressionUses)
        let extensions = ArazzoExtensions(root)
        var found = decoder.diagnostics + references.diagnostics + extensions.diagnostics
        if let operations {
            var check = ArazzoOperationCheck(
                document, uses: decoder.expressionUses, loader: operations.loader, read: operations.read,
                copies: operations.copies)
            check.check()
            found += check.diagnostics
            return Checked(
                document: document, diagnostics: Diagnostic.sortedByLocation(found), operations: check.resolved,
                sourcePaths: check.sourcePaths, extensions: extensions, arazzoSources: check.arazzoSources)
        }
        return Checked(document: document, diagnostics: Diagnostic.sortedByLocation(found), extensions: extensions)
    }
}
