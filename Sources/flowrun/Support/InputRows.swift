import FlowCore
import Foundation

/// The rows of an `--inputs-each` file: one run's inputs per row.
///
/// A `.csv` file has a header row of input names and one row per run; each cell is converted by its input's
/// declared type as `--input name=value` converts values, and an empty cell leaves the input out. Any other
/// file is JSON Lines: one JSON object per non-empty line. A row that cannot be read stops the command with
/// exit status 2, naming the file and line, before any request is sent.
struct InputRows {
    /// One row: its number (from 1, not counting a CSV header), the line it is on, and its inputs.
    struct Row {
        var number: Int
        var line: Int
        var inputs: [String: JSONValue]
    }

    let inputs: RunInputs

    func load(_ path: String) -> [Row] {
        let bytes: [UInt8]
        switch FileReader.read(path, kind: "an inputs-each file") {
        case .success(let data): bytes = data
        case .failure(let error): RunCommand.fail(error.description)
        }
        var lines = String(decoding: bytes, as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated()
            .map { (line: $0.offset + 1, text: $0.element.hasSuffix("\r") ? String($0.element.dropLast()) : String($0.element)) }
            .filter { !$0.text.trimmingCharacters(in: .whitespaces).isEmpty }
        let rows: [Row]
        if path.lowercased().hasSuffix(".csv") {
            guard !lines.isEmpty else { RunCommand.fail("\(path): the CSV file has no header row of input names") }
            let header = lines.removeFirst()
            let names = cells(header.text, path: path, line: header.line)
            rows = lines.enumerated().map { index, line in
                let values = cells(line.text, path: path, line: line.line)
                guard values.count == names.count else {
                    RunCommand.fail(
                        "\(path):\(line.line): \(values.count) cell\(values.count == 1 ? "" : "s"), "
                            + "but the header names \(names.count) input\(names.count == 1 ? "" : "s")")
                }
                var row: [String: JSONValue] = [:]
                for (name, cell) in zip(names, values) where !cell.isEmpty { row[name] = inputs.value(cell, for: name) }
                return Row(number: index + 1, line: line.line, inputs: row)
            }
        } else {
            rows = lines.enumerated().map { index, line in
                let value: JSONValue
                do throws(JSONSyntaxError) {
                    value = try JSONValue(parsing: Array(line.text.utf8))
                } catch {
                    RunCommand.fail("\(path):\(line.line): column \(error.column): \(error.message)")
                }
                guard case .object(let object) = value else {
                    RunCommand.fail("\(path):\(line.line): a row must be a JSON object of input names to values")
                }
                return Row(number: index + 1, line: line.line, inputs: object)
            }
        }
        if rows.isEmpty { RunCommand.fail("\(path): the file has no rows") }
        return rows
    }

    /// The cells of one CSV line: separated by commas, optionally in double quotes (`""` is a quote inside).
    private func cells(_ text: String, path: String, line: Int) -> [String] {
        var cells: [String] = []
        var cell = ""
        var quoted = false
        var characters = text.makeIterator()
        var pending = characters.next()
        while let character = pending {
            pending = characters.next()
            if quoted {
                if character == "\"" {
                    if pending == "\"" {
                        cell.append("\"")
                        pending = characters.next()
                    } else {
                        quoted = false
                    }
                } else {
                    cell.append(character)
                }
            } else if character == "\"" && cell.isEmpty {
                quoted = true
            } else if character == "," {
                cells.append(cell)
                cell = ""
            } else {
                cell.append(character)
            }
        }
        if quoted { RunCommand.fail("\(path):\(line): a quoted cell is not closed on its line") }
        cells.append(cell)
        return cells
    }
}
