import FlowCore
import Foundation
import OpenAPIKit

/// Reads an OpenAPI 3.0 or 3.1 document (YAML or JSON) into what the compiler needs of it: its servers, its
/// operations with their parameters, request body and response types, and its reusable schemas.
///
/// The text is read by flowrun's own YAML loader (JSON is YAML), which keeps the line and column of every node;
/// OpenAPIKit decodes the same tree as JSON. Every problem becomes a ``Diagnostic`` located in the document: a
/// decoding error through its coding path, a reference that does not resolve at the node that holds it. Nothing
/// in a document makes the loader crash or loop: schemas refer to each other by name, never by copying.
struct OpenAPIDocumentLoader {
    let limits: YAMLLoader.Limits

    func load(_ bytes: [UInt8], path: String, typePrefix: String) -> OperationSourceDocument {
        let root: YAMLNode
        do {
            root = try YAMLLoader(limits: limits).load(bytes, path: path)
        } catch {
            return .failed(Diagnostic(error))
        }
        let tree = LocatedTree(root: root)
        guard let fields = root.mapping else {
            return .failed(Diagnostic(
                .error, .typeMismatch,
                "expected an OpenAPI document, a mapping that starts with 'openapi: 3.1.0' (or 3.0.x), found "
                    + root.kindDescription,
                at: root.location))
        }
        func field(_ key: String) -> YAMLNode? { fields.first { $0.key.scalar?.text == key }?.value }
        guard let versionNode = field("openapi") else {
            if let swagger = field("swagger") {
                return .failed(Diagnostic(
                    .error, .unsupportedVersion,
                    "Swagger \(swagger.scalar?.text ?? "2.0") documents are not supported; convert the document to "
                        + "OpenAPI 3.0 or 3.1", at: swagger.location))
            }
            return .failed(Diagnostic(
                .error, .missingKey, "not an OpenAPI document: it has no 'openapi' version (3.0.x or 3.1.x)",
                at: root.location))
        }
        let version = versionNode.scalar?.text ?? ""
        let is30 = version.hasPrefix("3.0.")
        guard is30 || version.hasPrefix("3.1.") || version.hasPrefix("3.2.") else {
            return .failed(Diagnostic(
                .error, .unsupportedVersion,
                "unsupported OpenAPI version '\(version)'; flowrun reads OpenAPI 3.0.x, 3.1.x and 3.2.x documents",
                at: versionNode.location))
        }
        // OpenAPIKit decodes without specification extensions (see `decoder()`), which is also what made it report
        // unknown keys: they are found here, each at its key.
        var keys = OpenAPIKeyCheck()
        keys.check(root)
        if !keys.diagnostics.isEmpty { return OperationSourceDocument(diagnostics: keys.diagnostics) }
        let document: OpenAPI.Document
        do {
            let data = try JSONEncoder().encode(JSONValue(yaml: root))
            document = is30
                ? try OpenAPI30Decoding.decode(data) : try Self.decoder().decode(OpenAPI.Document.self, from: data)
        } catch {
            let described = OpenAPI.Error(from: error)
            let location = tree.location(of: described.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue })
            return .failed(Diagnostic(
                .error, .invalidValue, "invalid OpenAPI document: \(Self.oneLine(described.localizedDescription))",
                at: location))
        }
        var reader = DocumentReader(document: document, tree: tree, typePrefix: typePrefix)
        return reader.read()
    }
}

extension OpenAPIDocumentLoader {
    /// The decoder of OpenAPIKit's models, without specification extensions (`x-…`), which flowrun does not read:
    /// decoding them decodes every member of every object once more as `AnyCodable`. With them, `flowrun lint` of
    /// an Arazzo document over a 5,200-line OpenAPI document took 348 ms; without, 112 ms. ``OpenAPIKeyCheck``
    /// finds the unknown keys that OpenAPIKit found while decoding them.
    static func decoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        // OpenAPIKit30's key has the same raw value.
        decoder.userInfo = [OpenAPIKit.VendorExtensionsConfiguration.enabledKey: false]
        return decoder
    }

    /// OpenAPIKit's message as one line of a diagnostic: its paragraphs joined, its Markdown emphasis dropped.
    static func oneLine(_ message: String) -> String {
        var text = message.replacingOccurrences(of: "**", with: "")
        text = text.split(whereSeparator: \.isNewline).map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }.joined(separator: " ")
        while text.hasSuffix("..") { text.removeLast() }
        return text
    }
}

/// The YAML tree of a document, to locate a path of keys in it.
struct LocatedTree {
    let root: YAMLNode

    /// The node at `path` (mapping keys, and sequence indexes as text), or `nil`.
    func node(at path: [String]) -> YAMLNode? {
        var node = root
        for key in path {
            guard let next = Self.child(of: node, key) else { return nil }
            node = next
        }
        return node
    }

    /// Where the deepest node on `path` is: a path that leaves the tree points at the last node it reached.
    func location(of path: [String]) -> SourceLocation {
        var node = root
        for key in path {
            guard let next = Self.child(of: node, key) else { break }
            node = next
        }
        return node.location
    }

    static func child(of node: YAMLNode, _ key: String) -> YAMLNode? {
        switch node.content {
        case .mapping(let pairs): return pairs.first { $0.key.scalar?.text == key }?.value
        case .sequence(let elements):
            guard let index = Int(key), elements.indices.contains(index) else { return nil }
            return elements[index]
        default: return nil
        }
    }
}
