import Foundation

/// Facts about the terminal the CLI writes to.
enum Terminal {
    /// Whether `descriptor` is a terminal that should get ANSI colors: a TTY, `NO_COLOR` unset, `TERM` not `dumb`.
    static func isColorTerminal(_ descriptor: Int32) -> Bool {
        // Not a terminal (a pipe, a file, CI) decides it without reading the environment, which Foundation copies
        // whole into a dictionary.
        guard isatty(descriptor) != 0 else { return false }
        let environment = ProcessInfo.processInfo.environment
        return environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}
