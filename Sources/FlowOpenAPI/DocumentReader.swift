import FlowCore
import Foundation
import OpenAPIKit

/// Turns a decoded OpenAPI document into an ``OperationSourceDocument``: resolves the references of path items,
/// parameters, request bodies and responses in `components`, and converts schemas to flowrun's model.
struct DocumentReader {
    let document: OpenAPI.Document
    let tree: LocatedTree
    let typePrefix: String
    var diagnostics: [Diagnostic] = []

    init(document: OpenAPI.Document, tree: LocatedTree, typePrefix: String) {
        self.document = document
        self.tree = tree
        self.typePrefix = typePrefix
    }

    private mutating func error(_ message: String, at path: [String]) {
        diagnostics.append(Diagnostic(.error, .invalidValue, message, at: tree.location(of: path)))
    }

    mutating func read() -> OperationSourceDocument {
        var result = OperationSourceDocument()
        result.servers = document.servers.map(Self.url)
        var types: [NamedType] = []
        for (key, schema) in document.components.schemas {
            let path = ["components", "schemas", key.rawValue]
            let converted = convert(schema, at: path)
            types.append(NamedType(name: Located(typePrefix + key.rawValue, at: tree.location(of: path)),
                                   schema: converted))
        }
        result.types = types.sorted { $0.name.location < $1.name.location }
        result.securitySchemes = securitySchemes()
        var operations: [SourceOperation] = []
        let pathNodes = Dictionary(
            (tree.node(at: ["paths"])?.mapping ?? []).compactMap { pair in
                pair.key.scalar.map { (OpenAPI.Path(rawValue: $0.text).rawValue, $0.text) }
            },
            uniquingKeysWith: { a, _ in a })
        for (path, item) in document.paths {
            let written = pathNodes[path.rawValue] ?? path.rawValue
            let itemPath = ["paths", written]
            guard let pathItem = resolve(item, at: itemPath, what: "path item") else { continue }
            for endpoint in pathItem.endpoints {
                let method = endpoint.method.rawValue.uppercased()
                let key = method.lowercased()
                let operationPath = itemPath + [key]
                var operation = SourceOperation(
                    id: endpoint.operation.operationId, pointer: "/paths/\(Self.escape(written))/\(key)",
                    method: method, path: path.rawValue, location: tree.location(of: operationPath))
                operation.parameters = parameters(
                    pathItem.parameters, at: itemPath + ["parameters"],
                    endpoint.operation.parameters, at: operationPath + ["parameters"])
                if let body = endpoint.operation.requestBody {
                    operation.body = requestBody(body, at: operationPath + ["requestBody"])
                }
                operation.responses = responses(endpoint.operation.responses, at: operationPath + ["responses"])
                operation.security = (endpoint.operation.security ?? document.security).map { requirement in
                    requirement.keys.compactMap(\.name).sorted()
                }
                operations.append(operation)
            }
        }
        result.operations = operations.sorted { $0.location < $1.location }
        var seen: [String: SourceOperation] = [:]
        for operation in result.operations {
            guard let id = operation.id else { continue }
            if let first = seen[id] {
                diagnostics.append(Diagnostic(
                    .error, .duplicateName,
                    "duplicate operationId '\(id)' (first at line \(first.location.line)); an operationId names one "
                        + "operation", at: operation.location))
            } else {
                seen[id] = operation
            }
        }
        result.diagnostics = diagnostics.sorted { ($0.location?.line ?? 0, $0.location?.column ?? 0) < ($1.location?.line ?? 0, $1.location?.column ?? 0) }
        return result
    }

    /// The document's security schemes, as flowrun can send them.
    private func securitySchemes() -> [SourceSecurityScheme] {
        var schemes: [SourceSecurityScheme] = []
        for (key, value) in document.components.securitySchemes {
            let location = tree.location(of: ["components", "securitySchemes", key.rawValue])
            let kind: SourceSecurityScheme.Kind
            switch value {
            case .a:
                kind = .unsupported("a reference to another security scheme")
            case .b(let scheme):
                switch scheme.type {
                case .http(let name, _) where name.lowercased() == "bearer": kind = .bearer
                case .http(let name, _) where name.lowercased() == "basic": kind = .basic
                case .http(let name, _): kind = .unsupported("HTTP '\(name)' authentication")
                case .apiKey(let name, let location):
                    switch location {
                    case .header: kind = .apiKey(.header(name))
                    case .query: kind = .apiKey(.query(name))
                    case .cookie: kind = .unsupported("an API key in a cookie")
                    }
                case .oauth2, .openIdConnect: kind = .bearer   // Their access tokens are bearer tokens.
                case .mutualTLS: kind = .unsupported("mutual TLS (give the server a client certificate instead)")
                }
            }
            schemes.append(SourceSecurityScheme(name: key.rawValue, kind: kind, location: location))
        }
        return schemes.sorted { $0.location < $1.location }
    }

    /// A server's URL with each `{variable}` replaced by its default.
    static func url(of server: OpenAPI.Server) -> String {
        var url = server.urlTemplate.rawValue
        for (name, variable) in server.variables {
            url = url.replacingOccurrences(of: "{\(name)}", with: variable.default)
        }
        return url
    }

    /// A JSON pointer token: `~` as `~0`, `/` as `~1` (RFC 6901).
    static func escape(_ token: String) -> String {
        token.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    // MARK: References

    /// The component a reference names, or the value itself; `nil` after reporting a reference that does not
    /// resolve (with the location of the node that holds it).
    private mutating func resolve<T: ComponentDictionaryLocatable>(
        _ value: Either<OpenAPI.Reference<T>, T>, at path: [String], what: String
    ) -> T? {
        switch value {
        case .b(let value):
            return value
        case .a(let reference):
            if reference.isExternal {
                error("the \(what) refers to '\(reference.absoluteString)' in another file; flowrun resolves "
                          + "references within the document only", at: path + ["$ref"])
                return nil
            }
            do {
                return try document.components.lookup(reference)
            } catch {
                let names = componentNames(of: T.self)
                if let name = reference.name, names.contains(name) {
                    // It exists, but following it never ends (or ends nowhere): a chain of references.
                    self.error("the \(what) reference '\(reference.absoluteString)' cannot be followed: it leads to a "
                                   + "cycle of references or to one that does not resolve",
                               at: path + ["$ref"])
                } else {
                    self.error("the \(what) reference '\(reference.absoluteString)' does not resolve"
                                   + Suggestion.didYouMean(reference.name ?? "", in: names),
                               at: path + ["$ref"])
                }
                return nil
            }
        }
    }

    /// The names of the components of one kind, for suggestions.
    private func componentNames<T>(of type: T.Type) -> [String] {
        let components = document.components
        let keys: [OpenAPI.ComponentKey] =
            if T.self == OpenAPI.Parameter.self { Array(components.parameters.keys) }
            else if T.self == OpenAPI.Response.self { Array(components.responses.keys) }
            else if T.self == OpenAPI.Request.self { Array(components.requestBodies.keys) }
            else if T.self == OpenAPI.PathItem.self { Array(components.pathItems.keys) }
            else { [] }
        return keys.map(\.rawValue)
    }

    // MARK: Parameters

    private mutating func parameters(
        _ shared: OpenAPI.Parameter.Array, at sharedPath: [String],
        _ own: OpenAPI.Parameter.Array, at ownPath: [String]
    ) -> [SourceParameter] {
        var result: [SourceParameter] = []
        for (list, path) in [(shared, sharedPath), (own, ownPath)] {
            for (index, entry) in list.enumerated() {
                let entryPath = path + [String(index)]
                guard let parameter = resolve(entry, at: entryPath, what: "parameter") else { continue }
                let converted = convert(parameter, at: entryPath)
                // OpenAPI: a header parameter named Accept, Content-Type or Authorization "SHALL be ignored"; the
                // request's body and credentials set those fields.
                if converted.isIgnoredHeader { continue }
                // An operation's own parameter replaces the path item's of the same name and place.
                result.removeAll { $0.name == converted.name && $0.placement == converted.placement }
                result.append(converted)
            }
        }
        return result
    }

    private mutating func convert(_ parameter: OpenAPI.Parameter, at path: [String]) -> SourceParameter {
        let placement: SourceParameter.Placement =
            switch parameter.location {
            case .path: .path
            case .query: .query
            case .header: .header
            case .cookie: .cookie
            default: .other
            }
        var style = placement == .query || placement == .cookie ? "form" : "simple"
        var explode = style == "form"
        var schema: FlowCore.JSONSchema?
        var isJSONContent = false
        switch parameter.context {
        case .query(_, _, let schemaOrContent), .header(_, let schemaOrContent), .path(let schemaOrContent),
            .cookie(_, let schemaOrContent):
            switch schemaOrContent {
            case .a(let context):
                style = context.style.rawValue
                explode = context.explode
                switch context.schema {
                case .b(let value): schema = convert(value, at: path + ["schema"])
                case .a(let reference): schema = named(reference.absoluteString, at: path + ["schema"])
                }
            case .b(let content):
                schema = jsonSchema(of: content, at: path + ["content"])
                isJSONContent = content.keys.contains { $0.rawValue.hasSuffix("/json") || $0.rawValue.hasSuffix("+json") }
            }
        default:
            break
        }
        var read = SourceParameter(
            name: parameter.name, placement: placement, required: parameter.required || placement == .path,
            style: style, explode: explode, schema: schema, location: tree.location(of: path))
        read.isJSONContent = isJSONContent
        return read
    }

    // MARK: Bodies

    private mutating func requestBody(
        _ value: Either<OpenAPI.Reference<OpenAPI.Request>, OpenAPI.Request>, at path: [String]
    ) -> SourceRequestBody? {
        guard let body = resolve(value, at: path, what: "request body") else { return nil }
        let bodyPath = componentPath(value) ?? path
        return SourceRequestBody(
            required: body.required, contentTypes: body.content.keys.map(\.rawValue),
            schema: jsonSchema(of: body.content, at: bodyPath + ["content"]))
    }

    private mutating func responses(_ map: OpenAPI.Response.Map, at path: [String]) -> [ResponseCase] {
        let statusKeys = Dictionary(
            (tree.node(at: path)?.mapping ?? []).compactMap { pair in pair.key.scalar.map { ($0.text.uppercased(), $0.text) } },
            uniquingKeysWith: { a, _ in a })
        var cases: [ResponseCase] = []
        for (status, value) in map {
            let written = statusKeys[status.rawValue.uppercased()] ?? status.rawValue
            let responsePath = path + [written]
            let flowStatus: ResponseCase.Status =
                switch status.value {
                case .default: .default
                case .status(let code): .code(code)
                case .range(let range): .range(Int(String(range.rawValue.prefix(1))) ?? 0)
                }
            guard let response = resolve(value, at: responsePath, what: "response") else { continue }
            let contentPath = (componentPath(value) ?? responsePath) + ["content"]
            let schema = jsonSchema(of: response.content, at: contentPath)
                ?? FlowCore.JSONSchema.any(at: tree.location(of: responsePath))
            var described = ResponseCase(status: Located(flowStatus, at: tree.location(of: responsePath)), schema: schema)
            described.contentTypes = response.content.keys.map(\.rawValue)
            cases.append(described)
        }
        return cases.sorted { $0.status.location < $1.status.location }
    }

    /// The path in the document of the component a reference names.
    private func componentPath<T>(_ value: Either<OpenAPI.Reference<T>, T>) -> [String]? {
        guard case .a(let reference) = value, reference.isInternal else { return nil }
        let text = reference.absoluteString
        guard text.hasPrefix("#/") else { return nil }
        return text.dropFirst(2).split(separator: "/", omittingEmptySubsequences: false).map {
            String($0).replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    /// The schema of the JSON entry of a content map: `application/json`, a `+json` type, `*/*`, in that order.
    private mutating func jsonSchema(of content: OpenAPI.Content.Map, at path: [String]) -> FlowCore.JSONSchema? {
        let keys = Array(content.keys)
        func rank(_ type: OpenAPI.ContentType) -> Int? {
            let text = type.rawValue.lowercased()
            if text.hasPrefix("application/json") { return 0 }
            if text.contains("+json") || text.contains("/json") { return 1 }
            if text.hasPrefix("*/*") { return 2 }
            return nil
        }
        guard let best = keys.filter({ rank($0) != nil }).min(by: { rank($0)! < rank($1)! }),
            let entry = content[best]
        else { return nil }
        let entryPath = path + [contentKeyText(best, at: path)]
        let value: OpenAPI.Content
        switch entry {
        case .b(let direct): value = direct
        case .a(let reference):
            guard let found = try? document.components.lookup(reference) else {
                error("the media type reference '\(reference.absoluteString)' does not resolve", at: entryPath)
                return nil
            }
            value = found
        }
        return value.schema.map { convert($0, at: entryPath + ["schema"]) }
    }

    /// The key of a content type as the document writes it, for locating it.
    private func contentKeyText(_ type: OpenAPI.ContentType, at path: [String]) -> String {
        let pairs = tree.node(at: path)?.mapping ?? []
        return pairs.compactMap { $0.key.scalar?.text }.first { OpenAPI.ContentType(rawValue: $0) == type }
            ?? type.rawValue
    }

    // MARK: Schemas

    /// A reference to a component schema, by the name the workflow knows it by; anything else is reported.
    private mutating func named(_ reference: String, at path: [String]) -> FlowCore.JSONSchema {
        let location = tree.location(of: path)
        let prefix = "#/components/schemas/"
        if reference.hasPrefix(prefix) {
            let name = String(reference.dropFirst(prefix.count))
                .replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
            if document.components.schemas[OpenAPI.ComponentKey(stringLiteral: name)] != nil {
                return FlowCore.JSONSchema(location: location, ref: Located(typePrefix + name, at: location))
            }
            error("the schema reference '\(reference)' does not resolve"
                      + Suggestion.didYouMean(name, in: document.components.schemas.keys.map(\.rawValue)),
                  at: path + ["$ref"])
        } else if reference.hasPrefix("#") {
            error("the schema reference '\(reference)' does not point into '#/components/schemas/'; flowrun "
                      + "resolves schema references to components only", at: path + ["$ref"])
        } else {
            error("the schema reference '\(reference)' is in another file; flowrun resolves references within "
                      + "the document only", at: path + ["$ref"])
        }
        return .any(at: location)
    }

    /// Converts an OpenAPIKit schema to flowrun's, located at `path` in the document (or the nearest node on it).
    mutating func convert(_ schema: OpenAPIKit.JSONSchema, at path: [String]) -> FlowCore.JSONSchema {
        let location = tree.location(of: path)
        let core = schema.coreContext
        var types: Set<FlowCore.JSONSchema.TypeName>?
        var properties: [(name: String, schema: FlowCore.JSONSchema)] = []
        var required: [Located<String>] = []
        var additional = FlowCore.JSONSchema.AdditionalProperties.unspecified
        var items: FlowCore.JSONSchema?
        var oneOf: [FlowCore.JSONSchema] = []
        var anyOf: [FlowCore.JSONSchema] = []
        var allOf: [FlowCore.JSONSchema] = []
        var minimum: Double?
        var maximum: Double?
        var exclusiveMinimum: Double?
        var exclusiveMaximum: Double?
        var minLength: Int?
        var maxLength: Int?
        var pattern: String?
        var minItems: Int?
        var maxItems: Int?
        var format: String?
        func list(_ schemas: [OpenAPIKit.JSONSchema], _ key: String) -> [FlowCore.JSONSchema] {
            schemas.enumerated().map { convert($0.element, at: path + [key, String($0.offset)]) }
        }
        switch schema.value {
        case .reference(let reference, _):
            let target = named(reference.absoluteString, at: path)
            return core.nullable ? nullable(target, at: location) : target
        case .null:
            types = [.null]
        case .boolean:
            types = [.boolean]
        case .number(_, let numeric):
            types = [.number]
            if let bound = numeric.minimum { if bound.exclusive { exclusiveMinimum = bound.value } else { minimum = bound.value } }
            if let bound = numeric.maximum { if bound.exclusive { exclusiveMaximum = bound.value } else { maximum = bound.value } }
        case .integer(_, let integer):
            types = [.integer]
            if let bound = integer.minimum {
                if bound.exclusive { exclusiveMinimum = Double(bound.value) } else { minimum = Double(bound.value) }
            }
            if let bound = integer.maximum {
                if bound.exclusive { exclusiveMaximum = Double(bound.value) } else { maximum = Double(bound.value) }
            }
        case .string(let context, let string):
            types = [.string]
            format = context.formatString
            minLength = string.minLength > 0 ? string.minLength : nil
            maxLength = string.maxLength
            if let text = string.pattern, case .compiled = PatternCache.compile(text) { pattern = text }
        case .object(_, let object):
            types = [.object]
            for (name, property) in object.properties {
                properties.append((name, convert(property, at: path + ["properties", name])))
            }
            // In the document's order: decoding went through a JSON object, which keeps none.
            let written = (tree.node(at: path + ["properties"])?.mapping ?? []).compactMap { $0.key.scalar?.text }
            let position = Dictionary(written.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
            properties.sort { (position[$0.name] ?? .max, $0.name) < (position[$1.name] ?? .max, $1.name) }
            let declared = Set(properties.map(\.name))
            let listed = (tree.node(at: path + ["required"])?.sequence ?? []).compactMap { $0.scalar?.text }
            let requiredNames = object.requiredProperties.filter { declared.contains($0) }
            required = (listed.filter(requiredNames.contains) + requiredNames.filter { !listed.contains($0) }.sorted())
                .map { Located($0, at: tree.location(of: path + ["required"])) }
            switch object.additionalProperties {
            case .a(let allowed)?: additional = .allowed(allowed)
            case .b(let other)?: additional = .schema(convert(other, at: path + ["additionalProperties"]))
            case nil: break
            }
        case .array(_, let array):
            types = [.array]
            items = array.items.map { convert($0, at: path + ["items"]) }
            minItems = array.minItems > 0 ? array.minItems : nil
            maxItems = array.maxItems
        case .all(let schemas, _):
            allOf = list(schemas, "allOf")
        case .one(let schemas, _):
            oneOf = list(schemas, "oneOf")
        case .any(let schemas, _):
            anyOf = list(schemas, "anyOf")
        case .not, .fragment:
            break
        }
        if core.nullable { types?.insert(.null) }
        if let low = minLength, let high = maxLength, low > high { (minLength, maxLength) = (nil, nil) }
        if let low = minimum, let high = maximum, low > high { (minimum, maximum) = (nil, nil) }
        let enumValues = core.allowedValues.map { $0.map(Self.jsonValue) }
        let converted = FlowCore.JSONSchema(
            location: location, types: types, properties: properties, required: required,
            additionalProperties: additional, items: items,
            enumValues: enumValues.map { core.nullable && !$0.contains(.null) ? $0 + [.null] : $0 },
            oneOf: oneOf, anyOf: anyOf, allOf: allOf, format: format, minimum: minimum, maximum: maximum,
            exclusiveMinimum: exclusiveMinimum, exclusiveMaximum: exclusiveMaximum, minLength: minLength,
            maxLength: maxLength, pattern: pattern, minItems: minItems, maxItems: maxItems,
            defaultValue: core.defaultValue.map(Self.jsonValue), description: core.description)
        if core.nullable && types == nil && !(oneOf.isEmpty && anyOf.isEmpty && allOf.isEmpty) {
            return nullable(converted, at: location)
        }
        return converted
    }

    private func nullable(_ schema: FlowCore.JSONSchema, at location: SourceLocation) -> FlowCore.JSONSchema {
        FlowCore.JSONSchema(location: location, anyOf: [schema, FlowCore.JSONSchema(location: location, types: [.null])])
    }

    /// An OpenAPIKit value (an `enum` entry or a `default`) as a ``JSONValue``.
    static func jsonValue(_ value: AnyCodable) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value),
            let decoded = try? JSONDecoder().decode(JSONValue.self, from: data)
        else { return .null }
        return decoded
    }
}
