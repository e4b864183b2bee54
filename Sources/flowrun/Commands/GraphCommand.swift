import ArgumentParser
import FlowCore
import Foundation

/// `flowrun graph`: draws a workflow's compiled plan as Mermaid or Graphviz source.
struct GraphCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "graph",
        abstract: "Draw a workflow's steps and what connects them, as Mermaid or Graphviz DOT.",
        discussion: """
            The file is compiled first, exactly as `flowrun lint` does; a file with errors is \
            not drawn. Nothing is sent.

            Each step is a box showing its request, its interceptors in the order they run, its \
            policy and retry attempts, and its dispatcher when it is not http. On-demand steps \
            and inline compensation requests (<step>/compensate) are dashed. An arrow points \
            from a step to a step that waits for it or that it may run:
              userId                 the target reads that output of the source
              $vars.token            the target reads a var that the source sets
              after                  the target lists the source under `after`
              401 → refresh          a refresh interceptor runs the on-demand target
              catch 404 → fallback   a catch rule handles a failure of the source;
                                     also goto, run and end (to the outputs)
              on-error 404 → ...     the same for a rule under the source's `on-error`
              compensate             the target undoes the source when the run fails later
              DE, AT                 a switch step runs the on-demand target on these cases
              next: link, ≤ 20 pages a paginate step fetches its next page (to itself)
              until …, ≤ 30×         a repeat step sends its request again (to itself)

            A forEach step shows `for each <array>, N at a time`; a workflow step, which runs \
            another file, is a subroutine box (Mermaid [[…]], DOT component).

            Refresh, catch, on-error, compensate, switch and loop arrows, and arrows to on-demand \
            steps, are dashed.

            Mermaid renders in GitHub and GitLab Markdown inside a ```mermaid block; DOT needs \
            Graphviz (`apt-get install graphviz`, `brew install graphviz`).

            Exit status: 0 when the graph was written, 2 when the file does not compile or \
            cannot be read, or the output file cannot be written.

            Examples:
              flowrun graph workflows/banking.yaml
              flowrun graph wf.yaml --format dot | dot -Tsvg > wf.svg
              flowrun graph wf.yaml --output docs/wf.mmd
            """
    )

    @Argument(help: "The workflow file, or an Arazzo document.", completion: .file(extensions: ["yaml", "yml"]))
    var file: String

    @OptionGroup(title: "Arazzo documents")
    var arazzo: ArazzoOptions

    @Option(help: "The graph language: mermaid, or dot (Graphviz).")
    var format: GraphFormat = .mermaid

    @Option(
        name: [.short, .long],
        help: ArgumentHelp("Write the graph to this file instead of standard output.", valueName: "file"))
    var output: String?

    func run() throws {
        let graph = PlanGraph(try PlanLoader(commandName: "graph", arazzo: arazzo).load(file))
        let text = switch format {
        case .mermaid: graph.mermaid()
        case .dot: graph.dot()
        }
        guard let output else {
            FileHandle.standardOutput.write(Data(text.utf8))
            return
        }
        // Written whole or not at all, as run's reports are; a missing folder is named as the system says it.
        do {
            try PartialFile(path: output).write(Data(text.utf8))
        } catch {
            let reason = error.localizedDescription  // a PartialFile.Unwritable's is its reason
            FileHandle.standardError.write(Data("flowrun graph: cannot write \(output): \(reason)\n".utf8))
            throw ExitCode(2)
        }
    }
}

/// The languages `flowrun graph` writes.
enum GraphFormat: String, CommandLineChoice {
    /// A Mermaid flowchart, which Markdown previewers draw.
    case mermaid
    /// Graphviz's DOT language, for `dot -Tsvg` and `dot -Tpng`.
    case dot
}
