import FlowCore
import Foundation

/// Collects a run's inputs from `--inputs` files and `--input name=value` pairs (pairs win).
struct RunInputs {
    let plan: Plan

    func collect(pairs: [String], file: String?) throws -> [String: JSONValue] {
        var inputs: [String: JSONValue] = [:]
        if let file {
            let data: [UInt8]
            switch FileReader.read(file, kind: "an inputs file") {
            case .success(let bytes): data = bytes
            case .failure(let error): RunCommand.fail(error.description)
            }
            do {
                let node = try YAMLLoader().load(data, path: file)
                guard case .object(let object) = JSONValue(yaml: node) else {
                    RunCommand.fail("\(node.location): the inputs file must hold a mapping of input names to values")
                }
                inputs = object
            } catch {
                RunCommand.fail(error.description)
            }
        }
        for pair in pairs {
            let equals = pair.firstIndex(of: "=")!
            let name = String(pair[..<equals])
            inputs[name] = value(String(pair[pair.index(after: equals)...]), for: name)
        }
        return inputs
    }

    /// The text as given for string inputs; otherwise JSON when it parses, else the text.
    ///
    /// `--input name=value` and the cells of an `--inputs-each` CSV file are converted this way.
    func value(_ text: String, for name: String) -> JSONValue {
        let schema = plan.workflow.inputs?.property(name)
        let resolved = schema?.ref.flatMap { plan.types[$0.value] } ?? schema
        if resolved?.types == [.string] { return .string(text) }
        return (try? JSONValue(parsing: Array(text.utf8))) ?? .string(text)
    }
}

/// Reads `.env` files: `NAME=value` lines, `#` comments, optional `export `, optional quotes.
enum DotEnv {
    struct Failure: Error, CustomStringConvertible {
        var description: String
    }

    static func load(_ path: String) throws(Failure) -> [String: String] {
        let data: [UInt8]
        switch FileReader.read(path, kind: "an env file") {
        case .success(let bytes): data = bytes
        case .failure(let error): throw Failure(description: error.description)
        }
        var values: [String: String] = [:]
        for (index, rawLine) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasSuffix("\r") { line.removeLast() }
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("export ") { line = String(line.dropFirst(7)) }
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(description: "\(path):\(index + 1):1: expected NAME=value")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.count >= 2, let first = value.first, first == "\"" || first == "'", value.last == first {
                value = String(value.dropFirst().dropLast())
                if first == "\"" { value = value.replacingOccurrences(of: "\\n", with: "\n") }
            }
            values[name] = value
        }
        return values
    }
}
