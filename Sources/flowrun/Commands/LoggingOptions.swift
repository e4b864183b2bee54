public import ArgumentParser
public import Logging

/// The logging options every running command shares.
struct LoggingOptions: ParsableArguments {
    @Option(help: "The least severe log messages to print to standard error: trace, debug, info, notice, warning, error, critical.")
    var logLevel: Logger.Level = .warning

    /// Bootstraps swift-log to standard error at the chosen level and returns the CLI's logger.
    ///
    /// Only the CLI bootstraps logging; the libraries take the logger they are given.
    func makeLogger() -> Logger {
        let level = logLevel
        LoggingSystem.bootstrap { label in
            var handler = StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        var logger = Logger(label: "flowrun")
        logger.logLevel = level
        return logger
    }
}

extension Logger.Level: @retroactive ExpressibleByArgument, CommandLineChoice {}
