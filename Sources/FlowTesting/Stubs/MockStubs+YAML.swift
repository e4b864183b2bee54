import FlowCore
import Foundation

extension MockStubs {
    /// The stubs as the text of a stub file (`*.mock.yaml`) that ``load(yaml:path:)`` reads back as the same
    /// stubs: what `flowrun run --record` writes.
    /// - Parameter comments: Lines written first, as `#` comments.
    /// - Returns: The file's text.
    public func yaml(comments: [String] = []) -> String {
        YAMLWriter.render(
            .mapping([("flowrun-mock", .value(.int(1))), ("stubs", yamlNode)]), comments: comments)
    }

    /// The stubs as the value of a `stubs:` key, in a stub file or a test file.
    var yamlNode: YAMLWriter.Node {
        .sequence(stubs.map(\.yamlNode))
    }
}

extension MockStub {
    /// The stub as a stub file writes it: `name`, `match` (only the conditions it has), `respond` (one
    /// response, or a list).
    var yamlNode: YAMLWriter.Node {
        var entries: [(String, YAMLWriter.Node)] = []
        if let name { entries.append(("name", .value(.string(name)))) }
        var conditions: [(String, YAMLWriter.Node)] = []
        if let method = match.method { conditions.append(("method", .value(.string(method)))) }
        if let path = match.path { conditions.append(("path", .value(.string(path)))) }
        if !match.query.isEmpty {
            conditions.append(("query", .mapping(match.query.sorted { $0.key < $1.key }.map { name, values in
                (name, values.count == 1 ? .value(.string(values[0])) : .value(.array(values.map { .string($0) })))
            })))
        }
        let headers: [(String, YAMLWriter.Node)] =
            match.headers.sorted { $0.key < $1.key }.map { ($0.key, .value(.string($0.value))) }
            + match.presentHeaders.sorted().map { ($0, .tagged(MockStubDecoder.presentTag)) }
            + match.absentHeaders.sorted().map { ($0, .tagged(MockStubDecoder.absentTag)) }
        if !headers.isEmpty { conditions.append(("headers", .mapping(headers))) }
        if let body = match.body { conditions.append(("body", .value(body))) }
        if !conditions.isEmpty { entries.append(("match", .mapping(conditions))) }
        let responses = responses.map(\.yamlNode)
        entries.append(("respond", responses.count == 1 ? responses[0] : .sequence(responses)))
        return .mapping(entries)
    }
}

extension MockStub.Response {
    /// The response as a stub file writes it. A text body is `text` when a header field gives its
    /// `Content-Type` (which `text` would otherwise set), else a string `body`, sent exactly as it is.
    var yamlNode: YAMLWriter.Node {
        var entries: [(String, YAMLWriter.Node)] = [("status", .value(.int(status)))]
        if !headers.fields.isEmpty {
            entries.append(("headers", .mapping(headers.map { ($0.name, .value(.string($0.value))) })))
        }
        switch body {
        case .json(let value)?: entries.append(("body", .value(value)))
        case .text(let text)?: entries.append((headers["Content-Type"] == nil ? "body" : "text", .value(.string(text))))
        case .bytes(let bytes)?: entries.append(("base64", .value(.string(Data(bytes).base64EncodedString()))))
        case nil: break
        }
        if let delay { entries.append(("delay", .value(.string(delay.workflowText)))) }
        return .mapping(entries)
    }
}
