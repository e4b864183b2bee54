import Foundation

/// flowrun's benchmarks, run on demand, never as tests:
///
///     swift build -c release --scratch-path .build-release
///     .build-release/release/flowrun-benchmarks lint
///
/// Each benchmark compares in one run and prints ratios, because the machines are shared and noisy.
let arguments = CommandLine.arguments.dropFirst()
let products = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()

switch arguments.first {
case "lint":
    try LintBenchmark(flowrun: products.appendingPathComponent("flowrun").path).run()
case "soak":
    try await SoakBenchmark(arguments: Array(arguments.dropFirst())).run()
default:
    print("""
        usage: flowrun-benchmarks lint

          lint   generate 1,000 workflows; time `flowrun lint` on all of them (process start included),
                 on one small file, and `check-jsonschema` on the same files for comparison
        """)
    exit(arguments.isEmpty ? 0 : 2)
}
