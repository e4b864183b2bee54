import Foundation

/// A GitHub Actions workflow command: one `::error file=wf.yaml,line=4,title=…::message` line.
///
/// GitHub Actions turns `error`, `warning` and `notice` commands printed by a job into
/// annotations on the run and, when they name a file and line, on the pull request's diff.
/// The message and property values are escaped as the Actions toolkit does, so a message
/// with a line break or a `:` stays one command.
struct WorkflowCommand {
    /// The command: `error`, `warning` or `notice`.
    var command: String
    /// The properties, such as `file`, `line`, `col` and `title`, in order.
    var properties: [(name: String, value: String)]
    /// The message; it may span lines.
    var message: String

    /// The command as one line, ending with a newline.
    var line: String {
        let list = properties.map { "\($0.name)=\(Self.escapeProperty($0.value))" }.joined(separator: ",")
        return "::\(command)\(list.isEmpty ? "" : " " + list)::\(Self.escapeData(message))\n"
    }

    /// Escapes a command's message.
    /// - Parameter text: The message.
    /// - Returns: The message with `%`, carriage return and line feed percent-encoded.
    static func escapeData(_ text: String) -> String {
        text.replacingOccurrences(of: "%", with: "%25")
            .replacingOccurrences(of: "\r", with: "%0D")
            .replacingOccurrences(of: "\n", with: "%0A")
    }

    /// Escapes a property value, which also may not contain `:` or `,`.
    /// - Parameter text: The value.
    /// - Returns: The value escaped as a message is, with `:` and `,` percent-encoded too.
    static func escapeProperty(_ text: String) -> String {
        escapeData(text).replacingOccurrences(of: ":", with: "%3A").replacingOccurrences(of: ",", with: "%2C")
    }
}
