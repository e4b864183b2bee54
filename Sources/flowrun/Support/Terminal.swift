import Foundation

/// Facts about the terminal the CLI writes to.
enum Terminal {
    /// Whether `descriptor` is a terminal that should get ANSI colors: a TTY, `NO_COLOR` unset, `TERM` not `dumb`.
    static func isColorTerminal(_ descriptor: Int32) -> Bool {
        let environment = ProcessInfo.processInfo.environment
        return isatty(descriptor) != 0 && environment["NO_COLOR"] == nil && environment["TERM"] != "dumb"
    }
}
