import Foundation
import OpenAPIKit
import OpenAPIKit30
import OpenAPIKitCompat

/// Decodes an OpenAPI 3.0 document and converts it to OpenAPIKit's 3.1 model, so the rest of FlowOpenAPI reads
/// one model. Kept apart because both OpenAPIKit modules name their types alike (`OpenAPI`, `JSONSchema`).
enum OpenAPI30Decoding {
    /// The 3.0 document in `data`, as a 3.1 document.
    /// - Throws: The decoding error.
    static func decode(_ data: Data) throws -> OpenAPIKit.OpenAPI.Document {
        let document = try OpenAPIDocumentLoader.decoder().decode(OpenAPIKit30.OpenAPI.Document.self, from: data)
        return document.convert(to: .v3_1_1)
    }
}
