import ArgumentParser
import FlowCore

/// `--check-responses warn|error|off`.
extension ResponseConformance: CommandLineChoice {}
