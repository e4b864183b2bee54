import Foundation
import Synchronization
import Testing
import FlowTesting
@testable import FlowCore

/// `repeat:` and `paginate:` steps: iterations until a condition, pages until there is no next one (Link
/// header, cursor, next URL, page numbers), the limits, the waits on a virtual clock, and lint's checks.
struct StepLoopTests {
    // MARK: repeat

    static func polling(_ loop: String, extra: String = "") -> String {
        """
        flowrun: 1
        types:
          Job: { type: object, required: [status], properties: { status: { type: string }, file: { type: string } } }
        steps:
          - id: job
            request: { method: GET, path: "https://api.test/job" }
            response: { 200: Job }
            repeat: \(loop)
            outputs: { status: $response.body#/status, file: $response.body#/file }
        \(extra)
        outputs: { file: $steps.job.outputs.file }
        """
    }

    /// Answers the bodies in order, the last one repeatedly.
    static func answering(_ bodies: [String], status: Int = 200) -> ScriptedDispatcher {
        let next = Mutex(0)
        return ScriptedDispatcher { _, _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return min(index, bodies.count - 1)
            }
            return json(status, bodies[index])
        }
    }

    static let running = #"{"status": "running"}"#
    static let done = #"{"status": "done", "file": "/f/1"}"#

    @Test func repeatUntilSendsTheRequestAgainUntilTheConditionHolds() async throws {
        let dispatcher = Self.answering([Self.running, Self.running, Self.done])
        let clock = VirtualClock()
        let report = await clock.run {
            await Engine(http: dispatcher, clock: clock).run(
                try! plan(Self.polling(#"{ until: "$response.body#/status == 'done'", delay: 2s, backoff: linear }"#)),
                inputs: [:], environment: [:])
        }
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["file"] == "/f/1")
        let step = try #require(report.steps.first)
        #expect(step.iterationCount == 3)
        #expect(step.loop == .repeat)
        #expect(step.attempts.map(\.iteration) == [0, 1, 2])
        #expect(step.outputs["status"] == "done")
        // Linear backoff from 2 s: 2 s after the first response, 4 s after the second.
        #expect(clock.now.offset == .seconds(6))
    }

    @Test func repeatWhileGoesOnWhileTheConditionHolds() async throws {
        let dispatcher = Self.answering([Self.running, Self.done])
        let report = try await run(
            Self.polling(#"{ while: "$response.body#/status != 'done'", delay: 1ms }"#), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.count == 2)
    }

    @Test func reachingMaxIterationsFailsNamingTheStepTheCountAndTheCondition() async throws {
        let report = try await run(
            Self.polling(#"{ until: "$response.body#/status == 'done'", maxIterations: 3, delay: 1ms }"#),
            on: Self.answering([Self.running]))
        let error = try #require(report.error)
        #expect(error.code == .loopLimit)
        #expect(error.stepID == "job")
        #expect(error.message == #"step 'job' reached maxIterations (3) and its 'until' condition ($response.body#/status == "done") still did not hold"#)
        #expect(report.steps.first?.iterationCount == 3)
    }

    @Test func aFailedIterationFailsTheStepSayingWhichIterationItWas() async throws {
        let next = Mutex(0)
        let dispatcher = ScriptedDispatcher { _, _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            return index == 0 ? json(200, Self.running) : json(500, #"{"message": "boom"}"#)
        }
        let report = try await run(
            Self.polling(#"{ until: "$response.body#/status == 'done'", delay: 1ms }"#), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .httpStatus)
        #expect(error.message == "iteration 1: status 500: boom")
        #expect(report.steps.first?.attempts.last?.iteration == 1)
    }

    @Test func aHundredIterationPollWithBackoffRunsInVirtualTime() async throws {
        let dispatcher = Self.answering(Array(repeating: Self.running, count: 99) + [Self.done])
        let clock = VirtualClock()
        let yaml = Self.polling(
            #"{ until: "$response.body#/status == 'done'", maxIterations: 100, delay: 1s, backoff: exponential, maxDelay: 30s }"#)
        let report = await clock.run {
            await Engine(http: dispatcher, clock: clock).run(try! plan(yaml), inputs: [:], environment: [:])
        }
        #expect(report.succeeded)
        #expect(report.steps.first?.iterationCount == 100)
        // 1 + 2 + 4 + 8 + 16 s, then 94 waits capped at 30 s.
        #expect(clock.now.offset == .seconds(31 + 94 * 30))
    }

    @Test func lintChecksTheRepeatCondition() {
        let found = diagnostics(Self.polling(#"{ until: "$response.body#/state == 'done'" }"#))
        #expect(found.contains { $0.code == .bindingTypeMismatch || $0.message.contains("state") })
        let both = diagnostics(Self.polling(#"{ until: "$statusCode == 200", while: "$statusCode == 202" }"#))
        #expect(both.map(\.message).contains("'repeat' has 'until' or 'while', not both"))
        let neither = diagnostics(Self.polling("{ maxIterations: 3 }"))
        #expect(neither.contains { $0.code == .missingKey && $0.message.contains("needs 'until'") })
        let unbounded = diagnostics(Self.polling(#"{ until: "$statusCode == 200", maxIterations: 0 }"#))
        #expect(unbounded.map(\.message).contains("'maxIterations' must be from 1 to 10000, found 0"))
        let item = diagnostics(Self.polling(#"{ until: "$item#/status == 'done'" }"#))
        #expect(item.contains { $0.message.contains("'$item") })
    }

    // MARK: paginate

    static func listing(_ paginate: String, query: String = "", outputs: String = "{ names: $response.body#/items, total: $response.body#/total }") -> String {
        """
        flowrun: 1
        types:
          Page:
            type: object
            required: [items]
            properties:
              items: { type: array, items: { type: string } }
              next: { type: [string, "null"] }
              total: { type: integer }
        steps:
          - id: list
            request: { method: GET, path: "https://api.test/items"\(query) }
            response: { 200: Page }
            paginate: \(paginate)
            outputs: \(outputs)
        outputs: { names: $steps.list.outputs.names }
        """
    }

    /// A list of three pages answered by `page(n, url)`.
    static func pages(_ answer: @escaping @Sendable (Int, String) -> StepResponse) -> ScriptedDispatcher {
        let next = Mutex(0)
        return ScriptedDispatcher { request, _ in
            let index = next.withLock { index in
                defer { index += 1 }
                return index
            }
            return answer(index, request.url)
        }
    }

    @Test func aLinkHeaderLeadsToTheNextPageAndArrayOutputsCollect() async throws {
        let dispatcher = Self.pages { index, _ in
            let link: HeaderFields = index < 2
                ? ["Link": #"<https://api.test/items?page=\#(index + 2)>; rel="next", <https://api.test/items?page=3>; rel="last""#]
                : [:]
            return json(200, #"{"items": ["p\#(index)a", "p\#(index)b"], "total": 6}"#, headers: link)
        }
        let report = try await run(Self.listing("{ next: link }"), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url)
            == ["https://api.test/items", "https://api.test/items?page=2", "https://api.test/items?page=3"])
        #expect(report.outputs["names"] == ["p0a", "p0b", "p1a", "p1b", "p2a", "p2b"])
        let step = try #require(report.steps.first)
        #expect(step.outputs["total"] == 6)
        #expect(step.iterationCount == 3)
        #expect(step.loop == .paginate)
        #expect(step.attempts.map(\.iteration) == [0, 1, 2])
    }

    @Test func aRelativeNextLinkIsResolvedAgainstThePage() async throws {
        let dispatcher = Self.pages { index, _ in
            json(200, #"{"items": ["x"]}"#, headers: index == 0 ? ["Link": "</items?after=x>; rel=next"] : [:])
        }
        let report = try await run(Self.listing("{ next: link }", outputs: "{ names: $response.body#/items }"), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.last?.url == "https://api.test/items?after=x")
    }

    @Test func aNextLinkToAnotherOriginIsNotFollowed() async throws {
        let dispatcher = Self.pages { _, _ in
            json(200, #"{"items": ["x"]}"#, headers: ["Link": "<https://evil.test/items?page=2>; rel=\"next\""])
        }
        let report = try await run(Self.listing("{ next: link }", outputs: "{ names: $response.body#/items }"), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .binding)
        #expect(error.message.contains("another origin (https://evil.test/items?page=2) than the first (https://api.test)"))
        #expect(dispatcher.requests.count == 1)
    }

    /// docs/workflow-format.md, paginate: a next page that cannot be worked out fails the step named by the page whose
    /// response gave it, as a page that fails is: `page 1: …` for the second page.
    @Test func aNextPageThatCannotBeWorkedOutIsNamedByItsPage() async throws {
        let offOrigin = Self.pages { index, _ in
            let next = index == 0 ? "https://api.test/items?page=2" : "https://evil.test/items?page=3"
            return json(200, #"{"items": ["x"]}"#, headers: ["Link": "<\(next)>; rel=\"next\""])
        }
        let report = try await run(Self.listing("{ next: link }", outputs: "{ names: $response.body#/items }"), on: offOrigin)
        let error = try #require(report.error)
        #expect(error.code == .binding)
        #expect(error.stepID == "list")
        #expect(error.message.hasPrefix("page 1: the next page is on another origin (https://evil.test/items?page=3)"))
        let step = try #require(report.steps.first)
        #expect(step.status == .failed)
        #expect(step.error?.message == error.message)
        #expect(step.attempts.map(\.iteration) == [0, 1])
        #expect(offOrigin.requests.count == 2)
    }

    @Test func aCursorInTheBodyGoesInTheNamedQueryParameter() async throws {
        let dispatcher = Self.pages { index, _ in
            let next = index < 2 ? #""c\#(index + 1)""# : "null"
            return json(200, #"{"items": ["i\#(index)"], "next": \#(next)}"#)
        }
        let report = try await run(
            Self.listing("{ next: $response.body#/next, param: cursor }", query: #", query: { limit: "1", cursor: "start" }"#,
                         outputs: "{ names: $response.body#/items }"),
            on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(dispatcher.requests.map(\.url) == [
            "https://api.test/items?limit=1&cursor=start", "https://api.test/items?limit=1&cursor=c1",
            "https://api.test/items?limit=1&cursor=c2",
        ])
        #expect(report.outputs["names"] == ["i0", "i1", "i2"])
    }

    @Test func aNextURLInTheBodyIsFetchedAsItIs() async throws {
        let dispatcher = Self.pages { index, _ in
            let next = index == 0 ? #""/items?token=abc""# : "null"
            return json(200, #"{"items": ["i\#(index)"], "next": \#(next)}"#)
        }
        let report = try await run(
            Self.listing("{ next: $response.body#/next }", outputs: "{ names: $response.body#/items }"), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.last?.url == "https://api.test/items?token=abc")
    }

    @Test func pageNumbersCountOnUntilAnEmptyPage() async throws {
        let dispatcher = Self.pages { index, _ in
            json(200, index < 2 ? #"{"items": ["i\#(index)"]}"# : #"{"items": []}"#)
        }
        let report = try await run(
            Self.listing("{ next: page, param: p }", query: #", query: { p: "1" }"#,
                         outputs: "{ names: $response.body#/items }"),
            on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.map(\.url)
            == ["https://api.test/items?p=1", "https://api.test/items?p=2", "https://api.test/items?p=3"])
        #expect(report.outputs["names"] == ["i0", "i1"])
    }

    @Test func pageNumbersStartAtOneWhenTheFirstRequestSendsNone() async throws {
        let dispatcher = Self.pages { index, _ in
            json(200, index < 3 ? #"{"items": ["i\#(index)"]}"# : #"{"items": []}"#)
        }
        let report = try await run(
            Self.listing("{ next: page }", outputs: "{ names: $response.body#/items }"), on: dispatcher)
        #expect(report.succeeded)
        // Page 1 is the request as written; each later page is one more, none fetched twice.
        #expect(dispatcher.requests.map(\.url) == [
            "https://api.test/items", "https://api.test/items?page=2", "https://api.test/items?page=3",
            "https://api.test/items?page=4",
        ])
        #expect(report.outputs["names"] == ["i0", "i1", "i2"])
    }

    @Test func aLastPageWithoutTheListAddsNothing() async throws {
        let dispatcher = Self.pages { index, _ in
            index == 0
                ? json(200, #"{"items": ["a", "b"], "next": "c1"}"#)
                : json(200, #"{"items": null, "next": null}"#)
        }
        let yaml = Self.listing(
            "{ next: $response.body#/next, param: cursor }", outputs: "{ names: $response.body#/items }"
        ).replacingOccurrences(of: "items: { type: array, items: { type: string } }",
                               with: #"items: { type: [array, "null"], items: { type: string } }"#)
        let report = try await run(yaml, on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(report.outputs["names"] == ["a", "b"])
    }

    @Test func aListLongerThanMaxPagesFailsSayingWhereItGoesOn() async throws {
        let dispatcher = Self.pages { index, _ in
            json(200, #"{"items": ["x"]}"#, headers: ["Link": "<https://api.test/items?page=\(index + 2)>; rel=\"next\""])
        }
        let report = try await run(
            Self.listing("{ next: link, maxPages: 2 }", outputs: "{ names: $response.body#/items }"), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .loopLimit)
        #expect(error.message == "step 'list' fetched maxPages (2) and the list goes on (next: https://api.test/items?page=3)")
    }

    @Test func lintChecksThePagination() {
        let object = diagnostics(Self.listing("{ next: $response.body#/items }"))
        #expect(object.contains { $0.code == .bindingTypeMismatch && $0.message.contains("not the next page's URL") })
        let noArray = diagnostics(Self.listing("{ next: page }", outputs: "{ total: $response.body#/total }"))
        #expect(noArray.contains { $0.message.contains("has no output that is an array") })
        let unknown = diagnostics(Self.listing("{ next: links }"))
        #expect(unknown.contains { $0.message.contains("did you mean 'link'") })
        let param = diagnostics(Self.listing("{ next: link, param: page }"))
        #expect(param.contains { $0.message.contains("'param' does not apply to 'next: link'") })
        let everything = diagnostics(Self.listing("{ next: nextlink, maxPages: 0, delay: soon }")).map(\.message)
        #expect(everything.count == 3, "a bad next hides nothing else: \(everything)")
        let both = diagnostics(Self.listing(#"{ next: link }\#n    repeat: { until: "$statusCode == 200" }"#))
        #expect(both.contains { $0.message.contains("both 'repeat' and 'paginate'") })
    }

    @Test func linkHeadersAreParsedAsRFC8288Says() {
        #expect(NextPageLink.target(in: #"<https://a.test/2>; rel="next""#) == "https://a.test/2")
        #expect(NextPageLink.target(in: #"<https://a.test/1>; rel="prev", <https://a.test/3>; rel="next""#)
            == "https://a.test/3")
        #expect(NextPageLink.target(in: #"<https://a.test/x>; title="a, b"; rel="next""#) == "https://a.test/x")
        #expect(NextPageLink.target(in: #"<https://a.test/x>; rel="prev next""#) == "https://a.test/x")
        #expect(NextPageLink.target(in: #"<https://a.test/x>; REL=Next"#) == "https://a.test/x")
        #expect(NextPageLink.target(in: #"<https://a.test/x>; rel="last""#) == nil)
        #expect(NextPageLink.target(in: "garbage <unclosed") == nil)
        #expect(NextPageLink.resolve("?p=2", against: "https://a.test/v1/items?p=1") == "https://a.test/v1/items?p=2")
        #expect(NextPageLink.resolve("more", against: "https://a.test/v1/items") == "https://a.test/v1/more")
        #expect(NextPageLink.resolve("//b.test/x", against: "https://a.test/") == "https://b.test/x")
        #expect(NextPageLink.origin(of: "HTTPS://A.test:443/x") == "https://a.test")
        #expect(NextPageLink.origin(of: "http://a.test:8080/x") == "http://a.test:8080")
    }
}
