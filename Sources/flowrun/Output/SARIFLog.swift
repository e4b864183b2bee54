import FlowCore

/// Renders lint findings as a SARIF 2.1.0 log, the format GitHub code scanning and other
/// static-analysis dashboards import.
///
/// The log has one run. Its tool lists one rule per ``FlowCore/FlowError/Code`` that
/// occurs, in order of first occurrence, with the code's stable name as the rule id and
/// its ``FlowCore/FlowError/Code/summary`` as the short description; each diagnostic is
/// a result with the rule id and index, a level (`error` or `warning`), the message and
/// one physical location.
///
/// A relative path is reported as given (without a leading `./`), percent-encoded as a
/// URI reference, relative to `%SRCROOT%` — the folder the command ran in, which is the
/// repository root in CI. An absolute path becomes a `file://` URI. Columns count Unicode
/// scalars (`columnKind: unicodeCodePoints`). A diagnostic without a place in the file
/// (an unreadable file) points at line 1, since code scanning needs a line to show a result.
enum SARIFLog {
    /// The `$schema` of the log.
    static let schemaURI = "https://json.schemastore.org/sarif-2.1.0.json"
    /// The `uriBaseId` of relative paths.
    static let sourceRoot = "%SRCROOT%"

    /// The SARIF log of `reports`.
    /// - Parameter reports: The linted files, with their diagnostics.
    /// - Returns: The log as pretty-printed JSON, ending with a newline.
    static func render(_ reports: [DiagnosticPrinter.FileReport]) -> String {
        var rules: [JSONValue] = []
        var ruleIndex: [String: Int] = [:]
        var results: [JSONValue] = []
        for report in reports {
            for diagnostic in report.diagnostics {
                let id = diagnostic.code.name
                let index: Int
                if let known = ruleIndex[id] {
                    index = known
                } else {
                    index = rules.count
                    ruleIndex[id] = index
                    rules.append(rule(diagnostic.code))
                }
                results.append(result(diagnostic, path: diagnostic.location?.path ?? report.path, ruleIndex: index))
            }
        }
        let log: JSONValue = [
            "$schema": .string(schemaURI),
            "version": "2.1.0",
            "runs": [
                [
                    "tool": [
                        "driver": [
                            "name": "flowrun",
                            "version": .string(FlowRunVersion.current),
                            "semanticVersion": .string(FlowRunVersion.current),
                            "rules": .array(rules),
                        ],
                    ],
                    "columnKind": "unicodeCodePoints",
                    "results": .array(results),
                ],
            ],
        ]
        return log.serialized(pretty: true) + "\n"
    }

    /// The reporting descriptor of `code`.
    private static func rule(_ code: FlowError.Code) -> JSONValue {
        [
            "id": .string(code.name),
            "shortDescription": ["text": .string(code.summary ?? "flowrun finding \(code.name)")],
        ]
    }

    private static func result(_ diagnostic: Diagnostic, path: String, ruleIndex: Int) -> JSONValue {
        let region: JSONValue
        if let location = diagnostic.location {
            region = ["startLine": .int(location.line), "startColumn": .int(location.column)]
        } else {
            region = ["startLine": 1]
        }
        return [
            "ruleId": .string(diagnostic.code.name),
            "ruleIndex": .int(ruleIndex),
            "level": .string(diagnostic.severity == .error ? "error" : "warning"),
            "message": ["text": .string(diagnostic.message)],
            "locations": [
                ["physicalLocation": ["artifactLocation": artifactLocation(path), "region": region]],
            ],
        ]
    }

    /// The artifact location of `path`: relative to `%SRCROOT%`, or a `file://` URI when absolute.
    static func artifactLocation(_ path: String) -> JSONValue {
        if path.hasPrefix("/") { return ["uri": .string("file://" + percentEncoded(path))] }
        var relative = Substring(path)
        while relative.hasPrefix("./") { relative = relative.dropFirst(2) }
        return ["uri": .string(percentEncoded(String(relative))), "uriBaseId": .string(sourceRoot)]
    }

    /// `path` with every byte outside RFC 3986's unreserved characters and `/` percent-encoded.
    private static func percentEncoded(_ path: String) -> String {
        var out = ""
        for byte in path.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"),
                UInt8(ascii: "~"), UInt8(ascii: "/"):
                out.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                let hex = String(byte, radix: 16, uppercase: true)
                out += "%" + (hex.count == 1 ? "0" + hex : hex)
            }
        }
        return out
    }
}
