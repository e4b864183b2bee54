import FlowCore

/// Finds the keys of an OpenAPI document that its objects do not define: a misspelt `descripton`, a `paramters`.
///
/// OpenAPIKit reports such keys only while it decodes specification extensions, which decodes every member of
/// every object once more and takes most of the time of a large document; the loader turns that off and walks the
/// located tree here instead, so each finding points at the key itself, with a did-you-mean. It knows the fixed
/// fields of OpenAPI 3.0, 3.1 and 3.2 (a key of any of them is accepted in all); `x-…` keys are allowed everywhere,
/// and a Schema Object's keys are JSON Schema's, which OpenAPI 3.1 leaves open, so schemas are not walked.
struct OpenAPIKeyCheck {
    private(set) var diagnostics: [Diagnostic] = []

    /// The kinds of object whose keys are checked, and what their members are.
    private enum Kind {
        case document, info, contact, license, server, serverVariable, components, pathItem, operation
        case parameter, requestBody, mediaType, encoding, responses, response, header, link, example, tag
        case externalDocs, securityScheme, oauthFlows, oauthFlow, callback
        /// A mapping whose keys are names, each value an object of the kind given.
        case map(Box)
        /// A list of objects of the kind given.
        case list(Box)
        /// Not checked: schemas, security requirements, examples' values, anything free-form.
        case open

        /// A kind inside `map` or `list` (enums cannot hold themselves directly).
        final class Box { let kind: Kind; init(_ kind: Kind) { self.kind = kind } }
    }

    private static func map(_ kind: Kind) -> Kind { .map(Kind.Box(kind)) }
    private static func list(_ kind: Kind) -> Kind { .list(Kind.Box(kind)) }

    /// The fixed fields of a kind of object, and the kind of each field's value.
    private static func fields(of kind: Kind) -> (context: String, fields: [String: Kind])? {
        switch kind {
        case .document:
            return ("the OpenAPI document", [
                "openapi": .open, "$self": .open, "info": .info, "jsonSchemaDialect": .open, "servers": list(.server),
                "paths": map(.pathItem), "webhooks": map(.pathItem), "components": .components, "security": .open,
                "tags": list(.tag), "externalDocs": .externalDocs,
            ])
        case .info:
            return ("'info'", [
                "title": .open, "summary": .open, "description": .open, "termsOfService": .open, "contact": .contact,
                "license": .license, "version": .open,
            ])
        case .contact: return ("a contact", ["name": .open, "url": .open, "email": .open])
        case .license: return ("a license", ["name": .open, "identifier": .open, "url": .open])
        case .server:
            return ("a server", ["url": .open, "description": .open, "name": .open, "variables": map(.serverVariable)])
        case .serverVariable: return ("a server variable", ["enum": .open, "default": .open, "description": .open])
        case .components:
            return ("'components'", [
                "schemas": .open, "responses": map(.response), "parameters": map(.parameter), "examples": map(.example),
                "requestBodies": map(.requestBody), "headers": map(.header), "securitySchemes": map(.securityScheme),
                "links": map(.link), "callbacks": map(.callback), "pathItems": map(.pathItem), "mediaTypes": map(.mediaType),
            ])
        case .pathItem:
            var fields: [String: Kind] = [
                "$ref": .open, "summary": .open, "description": .open, "servers": list(.server),
                "parameters": list(.parameter), "additionalOperations": map(.operation),
            ]
            for method in ["get", "put", "post", "delete", "options", "head", "patch", "trace", "query"] {
                fields[method] = .operation
            }
            return ("a path item", fields)
        case .operation:
            return ("an operation", [
                "tags": .open, "summary": .open, "description": .open, "externalDocs": .externalDocs,
                "operationId": .open, "parameters": list(.parameter), "requestBody": .requestBody,
                "responses": .responses, "callbacks": map(.callback), "deprecated": .open, "security": .open,
                "servers": list(.server),
            ])
        case .parameter:
            return ("a parameter", [
                "$ref": .open, "summary": .open, "name": .open, "in": .open, "description": .open, "required": .open,
                "deprecated": .open, "allowEmptyValue": .open, "style": .open, "explode": .open, "allowReserved": .open,
                "schema": .open, "example": .open, "examples": map(.example), "content": map(.mediaType),
            ])
        case .requestBody:
            return ("a request body", [
                "$ref": .open, "summary": .open, "description": .open, "content": map(.mediaType), "required": .open,
            ])
        case .mediaType:
            return ("a media type", [
                "$ref": .open, "schema": .open, "itemSchema": .open, "example": .open, "examples": map(.example),
                "encoding": map(.encoding), "prefixEncoding": .open, "itemEncoding": .open,
            ])
        case .encoding:
            return ("an encoding", [
                "contentType": .open, "headers": map(.header), "style": .open, "explode": .open,
                "allowReserved": .open, "encoding": .open, "prefixEncoding": .open, "itemEncoding": .open,
            ])
        case .response:
            return ("a response", [
                "$ref": .open, "summary": .open, "description": .open, "headers": map(.header),
                "content": map(.mediaType), "links": map(.link),
            ])
        case .header:
            return ("a header", [
                "$ref": .open, "summary": .open, "description": .open, "required": .open, "deprecated": .open,
                "allowEmptyValue": .open, "style": .open, "explode": .open, "allowReserved": .open, "schema": .open,
                "example": .open, "examples": map(.example), "content": map(.mediaType),
            ])
        case .link:
            return ("a link", [
                "$ref": .open, "summary": .open, "operationRef": .open, "operationId": .open, "parameters": .open,
                "requestBody": .open, "description": .open, "server": .server,
            ])
        case .example:
            return ("an example", [
                "$ref": .open, "summary": .open, "description": .open, "value": .open, "externalValue": .open,
                "dataValue": .open, "serializedValue": .open,
            ])
        case .tag:
            return ("a tag", [
                "name": .open, "summary": .open, "description": .open, "externalDocs": .externalDocs, "parent": .open,
                "kind": .open,
            ])
        case .externalDocs: return ("'externalDocs'", ["description": .open, "url": .open])
        case .securityScheme:
            return ("a security scheme", [
                "$ref": .open, "type": .open, "description": .open, "name": .open, "in": .open, "scheme": .open,
                "bearerFormat": .open, "flows": .oauthFlows, "openIdConnectUrl": .open, "oauth2MetadataUrl": .open,
                "deprecated": .open,
            ])
        case .oauthFlows:
            return ("'flows'", [
                "implicit": .oauthFlow, "password": .oauthFlow, "clientCredentials": .oauthFlow,
                "authorizationCode": .oauthFlow, "deviceAuthorization": .oauthFlow,
            ])
        case .oauthFlow:
            return ("an OAuth flow", [
                "authorizationUrl": .open, "deviceAuthorizationUrl": .open, "tokenUrl": .open, "refreshUrl": .open,
                "scopes": .open,
            ])
        case .responses, .callback, .map, .list, .open:
            return nil
        }
    }

    /// Checks the document whose root is `root`.
    mutating func check(_ root: YAMLNode) {
        visit(root, as: .document, depth: 0)
    }

    private mutating func visit(_ node: YAMLNode, as kind: Kind, depth: Int) {
        guard depth < 64 else { return }
        switch kind {
        case .open:
            return
        case .map(let box):
            for pair in node.mapping ?? [] where !(pair.key.scalar?.text.hasPrefix("x-") ?? false) {
                visit(pair.value, as: box.kind, depth: depth + 1)
            }
        case .list(let box):
            for element in node.sequence ?? [] { visit(element, as: box.kind, depth: depth + 1) }
        case .responses:
            // Status codes, `default` and `1XX`…`5XX` name responses.
            visit(node, as: Self.map(.response), depth: depth)
        case .callback:
            // Runtime expressions name path items.
            visit(node, as: Self.map(.pathItem), depth: depth)
        default:
            guard let (context, fields) = Self.fields(of: kind), let mapping = node.mapping else { return }
            // A Reference Object stands in for the object: its siblings are not the object's fields.
            if mapping.contains(where: { $0.key.scalar?.text == "$ref" }), context != "a path item" { return }
            for pair in mapping {
                let key = pair.key.scalar?.text ?? ""
                if key.hasPrefix("x-") { continue }
                guard let fieldKind = fields[key] else {
                    let suggestion = Suggestion.closest(to: key, in: fields.keys.sorted())
                    diagnostics.append(Diagnostic(
                        .error, .unknownKey,
                        "unknown key '\(key)' in \(context)"
                            + (suggestion.map { "; did you mean '\($0)'?" } ?? "; specification extensions start with 'x-'"),
                        at: pair.key.location))
                    continue
                }
                visit(pair.value, as: fieldKind, depth: depth + 1)
            }
        }
    }
}
