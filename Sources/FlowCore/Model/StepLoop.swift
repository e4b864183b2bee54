/// The wait between two iterations of a loop (`repeat:` or `paginate:`): a delay that may grow, the way a
/// retry rule's does.
package struct LoopPacing: Sendable {
    /// The delay before the second iteration.
    package var delay: Duration
    /// How the delay grows from one iteration to the next.
    package var backoff: RetryRule.Backoff
    /// The growth factor of exponential backoff.
    package var multiplier: Double
    /// The cap on any single delay.
    package var maxDelay: Duration?

    /// Creates a pacing.
    /// - Parameter delay: The constant delay between iterations.
    package init(delay: Duration) {
        self.delay = delay
        self.backoff = .constant
        self.multiplier = 2
    }

    /// The wait after iteration `index` (0 for the first) before the next one: constant, linear or exponential
    /// in the number of waits so far, capped by ``maxDelay``.
    package func wait(after index: Int) -> Duration {
        backoff.delay(index + 1, base: delay, multiplier: multiplier, maxDelay: maxDelay)
    }
}

/// `repeat:` on a step: the step's request is sent again, after a wait, until a condition on the response
/// holds (`until`) or while it holds (`while`), at most ``maxIterations`` times. The step's outputs are those
/// of the last iteration.
///
/// ```yaml
/// - id: waitForExport
///   request: { method: GET, path: "/exports/{$steps.create.outputs.id}" }
///   repeat:
///     until: $response.body#/status == "done"
///     maxIterations: 30
///     delay: 2s
///   outputs: { url: $response.body#/downloadUrl }
/// ```
package struct Repetition: Sendable {
    /// When the loop stops.
    package enum Stop: Sendable {
        /// After the first response the condition holds for.
        case until(Condition)
        /// After the first response the condition does not hold for.
        case `while`(Condition)

        /// The condition.
        package var condition: Condition {
            switch self {
            case .until(let condition), .while(let condition): condition
            }
        }

        /// The key it is written under: `until` or `while`.
        package var key: String {
            switch self {
            case .until: "until"
            case .while: "while"
            }
        }
    }

    /// When the loop stops.
    package var stop: Stop
    /// The most times the request is sent; reaching it without the loop ending fails the step.
    package var maxIterations: Int
    /// The wait between iterations.
    package var pacing: LoopPacing
    /// Where `repeat:` is written.
    package var location: SourceLocation

    /// The default of ``maxIterations``.
    package static let defaultMaxIterations = 10
    /// The default wait between iterations, so a poll written without one does not hammer the server.
    package static let defaultDelay = Duration.seconds(1)

    /// Creates the setting.
    package init(stop: Stop, maxIterations: Int, pacing: LoopPacing, location: SourceLocation) {
        self.stop = stop
        self.maxIterations = maxIterations
        self.pacing = pacing
        self.location = location
    }
}

/// `paginate:` on a step: the step fetches page after page of a list until there is no next page, at most
/// ``maxPages``. An output whose value on a page is an array collects across the pages (the items of every
/// page, in order); any other output holds the last page's value.
///
/// ```yaml
/// - id: repositories
///   request: { method: GET, path: /orgs/acme/repos, query: { per_page: "100" } }
///   paginate: { next: link }
///   outputs: { names: $response.body }
/// ```
package struct Pagination: Sendable {
    /// Where the next page is.
    package enum Next: Sendable {
        /// The URL of the response's `Link` header with `rel="next"` (RFC 8288).
        case link
        /// A value of the response: the next page's URL, or the cursor sent in query parameter `param`.
        case value(RuntimeExpression, param: Located<String>?)
        /// Page numbers in query parameter `param`, one more each page; the list ends at a page whose array
        /// outputs are all empty.
        case page(param: Located<String>)
    }

    /// Where the next page is.
    package var next: Next
    /// Where `next:` is written.
    package var nextLocation: SourceLocation
    /// The most pages fetched; a next page beyond it fails the step.
    package var maxPages: Int
    /// The wait between pages.
    package var pacing: LoopPacing
    /// Where `paginate:` is written.
    package var location: SourceLocation

    /// The default of ``maxPages``.
    package static let defaultMaxPages = 100
    /// The default query parameter of page numbers.
    package static let defaultPageParameter = "page"

    /// Creates the setting.
    package init(next: Next, nextLocation: SourceLocation, maxPages: Int, pacing: LoopPacing, location: SourceLocation) {
        self.next = next
        self.nextLocation = nextLocation
        self.maxPages = maxPages
        self.pacing = pacing
        self.location = location
    }
}

/// The limits shared by `repeat:` and `paginate:`.
package enum StepLoopLimits {
    /// The largest `maxIterations` or `maxPages` accepted.
    package static let maxIterations = 10_000
}
