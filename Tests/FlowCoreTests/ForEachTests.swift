import Foundation
import Synchronization
import Testing
@testable import FlowCore

/// `forEach:` steps: the request once per item with `$item`, outputs gathered in the order of the items however
/// they finish, the two item-failure modes, and lint's types for `$item` and the gathered outputs.
struct ForEachTests {
    static func workflow(forEach: String = "forEach: $steps.list.outputs.items", extra: String = "",
                         reader: String = "body: { details: $steps.details.outputs.detail }") -> String
    {
        """
        flowrun: 1
        types:
          Item: { type: object, required: [id], properties: { id: { type: string } } }
          Detail: { type: object, required: [name], properties: { name: { type: string } } }
        steps:
          - id: list
            request: { method: GET, path: "https://api.test/items" }
            response: { 200: { type: array, items: Item } }
            outputs: { items: $response.body }
          - id: details
            \(forEach)
            \(extra)
            request: { method: GET, path: "https://api.test/items/{$item#/id}" }
            response: { 200: Detail }
            outputs: { detail: $response.body#/name }
          - id: report
            request: { method: POST, path: "https://api.test/report", \(reader) }
            idempotent: true
        """
    }

    /// Answers the list with `ids`, each item after `delay(id)` milliseconds, and fails the ids in `failing`.
    static func server(_ ids: [String], failing: Set<String> = [], delay: @escaping @Sendable (String) -> Int = { _ in 0 })
        -> ScriptedDispatcher
    {
        ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/items") {
                return json(200, "[" + ids.map { #"{"id": "\#($0)"}"# }.joined(separator: ",") + "]")
            }
            if request.url.hasSuffix("/report") { return json(200, "{}") }
            let id = String(request.url.split(separator: "/").last ?? "")
            try await Task.sleep(for: .milliseconds(delay(id)))
            if failing.contains(id) { return json(503, #"{"error": "down"}"#) }
            return json(200, #"{"name": "n-\#(id)"}"#)
        }
    }

    /// An array whose type lint cannot know is checked when the step starts; the message names what it is.
    @Test(arguments: [(#"{"a": 1}"#, #"an object ({"a":1})"#), (#""x""#, #"a string ("x")"#), ("3", "an integer (3)")])
    func itemsThatAreNoArrayFailTheStepNamingWhatTheyAre(body: String, found: String) async throws {
        let yaml = """
            flowrun: 1
            steps:
              - id: list
                request: { method: GET, path: "https://api.test/items" }
                outputs: { items: $response.body#/items }
              - id: details
                forEach: $steps.list.outputs.items
                request: { method: GET, path: "https://api.test/items/{$item}" }
            """
        let dispatcher = ScriptedDispatcher { _, _ in json(200, #"{"items": \#(body)}"#) }
        let report = try await run(yaml, on: dispatcher)
        #expect(report.error?.stepID == "details")
        #expect(report.error?.message
            == "'forEach' reads '$steps.list.outputs.items', which is \(found), not an array")
    }

    @Test func theOutputsAreInTheOrderOfTheItemsHoweverTheyFinish() async throws {
        let dispatcher = Self.server(["a", "b", "c", "d"], delay: { id in id == "a" ? 40 : 0 })
        let report = try await run(Self.workflow(extra: "maxConcurrency: 4"), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self)
            == #"{"details":["n-a","n-b","n-c","n-d"]}"#)
        let details = try #require(report.steps.first { $0.id == "details" })
        #expect(details.itemCount == 4)
        #expect(details.attempts.map(\.item).sorted { ($0 ?? -1) < ($1 ?? -1) } == [0, 1, 2, 3])
        #expect(details.outputs == ["detail": ["n-a", "n-b", "n-c", "n-d"]])
    }

    @Test func atMostMaxConcurrencyItemsRunAtOnce() async throws {
        let running = Mutex((now: 0, most: 0))
        let dispatcher = ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/items") {
                return json(200, "[" + (1...8).map { #"{"id": "\#($0)"}"# }.joined(separator: ",") + "]")
            }
            if request.url.hasSuffix("/report") { return json(200, "{}") }
            running.withLock { $0.now += 1; $0.most = max($0.most, $0.now) }
            try await Task.sleep(for: .milliseconds(5))
            running.withLock { $0.now -= 1 }
            return json(200, #"{"name": "x"}"#)
        }
        let report = try await run(Self.workflow(extra: "maxConcurrency: 3"), on: dispatcher)
        #expect(report.succeeded)
        #expect(running.withLock { $0.most } == 3)
    }

    @Test func theFirstFailedItemFailsTheStepAndNoFurtherItemStarts() async throws {
        let dispatcher = Self.server(["a", "b", "c", "d"], failing: ["b"])
        let report = try await run(Self.workflow(), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.stepID == "details")
        #expect(error.code == .httpStatus)
        #expect(error.message.hasPrefix("item 1: status 503"), "\(error.message)")
        #expect(dispatcher.requests.map(\.url).filter { $0.contains("/items/") }
            == ["https://api.test/items/a", "https://api.test/items/b"])
    }

    @Test func theItemsCancelledByAFailureDoNotTakeItsPlace() async throws {
        // Item 0 is still running when item 2 fails: the step fails with item 2's error, not item 0's cancellation.
        let dispatcher = Self.server(["a", "b", "c"], failing: ["c"], delay: { id in id == "c" ? 0 : 2_000 })
        let report = try await run(Self.workflow(extra: "maxConcurrency: 3"), on: dispatcher)
        let error = try #require(report.error)
        #expect(error.code == .httpStatus)
        #expect(error.message.hasPrefix("item 2: status 503"), "\(error.message)")
    }

    @Test func skipLeavesAFailedItemOutAndTheStepSucceeds() async throws {
        let dispatcher = Self.server(["a", "b", "c"], failing: ["b"])
        let report = try await run(Self.workflow(extra: "onItemFailure: skip"), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"details":["n-a","n-c"]}"#)
        let details = try #require(report.steps.first { $0.id == "details" })
        #expect(details.attempts.map(\.status) == [200, 503, 200])
    }

    @Test func collectKeepsAFailedItemAsNullAndListsItsError() async throws {
        let dispatcher = Self.server(["a", "b", "c"], failing: ["b"])
        let reader = "body: { details: $steps.details.outputs.detail, errors: $steps.details.outputs.errors }"
        let report = try await run(Self.workflow(extra: "onItemFailure: collect", reader: reader), on: dispatcher)
        #expect(report.succeeded, "\(String(describing: report.error))")
        let details = try #require(report.steps.first { $0.id == "details" })
        #expect(details.status == .succeeded)
        #expect(details.outputs["detail"] == ["n-a", nil, "n-c"])
        let errors = try #require(details.outputs["errors"]?.arrayValue)
        #expect(errors.count == 1)
        #expect(errors.first?.objectValue?["item"] == 1)
        #expect(errors.first?.objectValue?["code"] == "http")
        #expect(errors.first?.objectValue?["status"] == 503)
        let message = errors.first?.objectValue?["message"]?.stringValue ?? ""
        #expect(message.hasPrefix("status 503"), "\(message)")
        let sent = String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self)
        #expect(sent.hasPrefix(#"{"details":["n-a",null,"n-c"],"errors":[{"code":"http","item":1,"message":"status 503"#))
    }

    @Test func aSecretInAnItemsErrorMessageIsRedactedInErrors() async throws {
        let yaml = """
            flowrun: 1
            inputs: { type: object, properties: { token: { type: string, format: password } } }
            steps:
              - id: each
                forEach: $inputs.ids
                onItemFailure: collect
                request: { method: GET, path: "https://api.test/items/{$item}", headers: { X-Token: $inputs.token } }
                outputs: { name: $response.body#/name }
            outputs: { errors: $steps.each.outputs.errors }
            """.replacingOccurrences(of: "properties: {", with: "properties: { ids: { type: array, items: { type: string } },")
        let dispatcher = ScriptedDispatcher { request, _ in
            request.url.hasSuffix("/bad")
                ? json(401, #"{"message": "token s3cret-value is revoked"}"#) : json(200, #"{"name": "ok"}"#)
        }
        let report = try await run(yaml, on: dispatcher, inputs: ["ids": ["good", "bad"], "token": "s3cret-value"])
        #expect(report.succeeded, "\(String(describing: report.error))")
        let message = report.outputs["errors"]?.arrayValue?.first?.objectValue?["message"]?.stringValue
        #expect(message == "status 401: token *** is revoked")
        #expect(report.steps.first?.outputs["errors"]?.serialized().contains("s3cret") == false)
    }

    @Test func aStepCancelledByAnotherStepsFailureStartsNoFurtherItem() async throws {
        // The report step reads nothing of details: it runs beside it, and its failure ends the run. It fails once
        // the first item is on its way, however slowly a loaded machine gets there.
        let itemsSent = Mutex(0)
        let dispatcher = ScriptedDispatcher { request, _ in
            if request.url.hasSuffix("/items") {
                return json(200, "[" + (0..<100).map { #"{"id": "\#($0)"}"# }.joined(separator: ",") + "]")
            }
            if request.url.hasSuffix("/report") {
                for _ in 0..<5_000 where itemsSent.withLock({ $0 }) == 0 { try await Task.sleep(for: .milliseconds(1)) }
                return json(500, "{}")
            }
            itemsSent.withLock { $0 += 1 }
            try await Task.sleep(for: .milliseconds(20))
            return json(200, #"{"name": "x"}"#)
        }
        let report = try await run(
            Self.workflow(extra: "onItemFailure: skip", reader: "body: { first: true }"), on: dispatcher)
        #expect(report.error?.stepID == "report")
        let details = try #require(report.steps.first { $0.id == "details" })
        // A skipped item does not make a cancelled step succeed, and the items after the cancellation are not sent.
        #expect(details.status == .failed)
        #expect(details.error?.code == .cancelled)
        #expect(details.error?.message.hasPrefix("the run was cancelled before item ") == true,
                "\(String(describing: details.error))")
        #expect(dispatcher.requests.count < 50)
    }

    @Test func anEmptyArraySendsNothingAndGivesEmptyOutputs() async throws {
        let dispatcher = Self.server([])
        let report = try await run(Self.workflow(), on: dispatcher)
        #expect(report.succeeded)
        #expect(dispatcher.requests.count == 2)
        #expect(String(decoding: dispatcher.requests.last?.body ?? [], as: UTF8.self) == #"{"details":[]}"#)
    }

    // MARK: Lint

    func errors(_ yaml: String) -> [String] {
        diagnostics(yaml).filter { $0.severity == .error }.map { "\($0.location?.line ?? 0): \($0.message)" }
    }

    @Test func itemIsTypedAsTheArraysItems() {
        let wrong = Self.workflow().replacingOccurrences(of: "{$item#/id}", with: "{$item#/idd}")
        #expect(errors(wrong) == ["13: '$item#/idd' reads nothing: type 'Item' has no property 'idd'; did you mean 'id'?"])
    }

    @Test func theOutputsOfAForEachStepAreArrays() {
        #expect(errors(Self.workflow(reader: "body: { first: $steps.details.outputs.detail#/0 }")).isEmpty)
        #expect(errors(Self.workflow(reader: "query: { name: $steps.details.outputs.detail }")).isEmpty)
        #expect(errors(Self.workflow(reader: "headers: { X-Name: $steps.details.outputs.detail }")).count == 1)
    }

    @Test func collectTypesTheErrorsAndMakesTheItemsNullable() {
        let collect = "onItemFailure: collect"
        #expect(errors(Self.workflow(extra: collect, reader: "body: { m: $steps.details.outputs.errors#/0/message }"))
            .isEmpty)
        #expect(errors(Self.workflow(extra: collect, reader: "body: { m: $steps.details.outputs.errors#/0/mesage }"))
            .first?.contains("did you mean 'message'?") == true)
        #expect(errors(Self.workflow(reader: "body: { m: $steps.details.outputs.errors }"))
            == ["17: step 'details' has no output 'errors'"])
        #expect(errors(Self.workflow(extra: collect, reader: "body: { first: $steps.details.outputs.detail#/0 }"))
            .isEmpty)
        #expect(errors(Self.workflow(extra: collect).replacingOccurrences(
            of: "outputs: { detail: $response.body#/name }",
            with: "outputs: { detail: $response.body#/name, errors: $statusCode }"))
            == ["15: step 'details' collects its failed items' errors in the output 'errors' ('onItemFailure: "
                + "collect'); give this output another name"])
    }

    @Test func forEachOverANonArrayAndItemOutsideAForEachAreRefused() {
        #expect(errors(Self.workflow(forEach: "forEach: $steps.list.outputs.items#/0"))
            == ["11: 'forEach' reads '$steps.list.outputs.items#/0', which is type 'Item', not an array"])
        #expect(errors(Self.workflow(forEach: "")).first?.contains("'$item' is the current item of a step with 'forEach'")
            == true)
        #expect(errors(Self.workflow(forEach: "forEach: items")).first?
            .contains("expected 'forEach' to be a runtime expression that gives an array") == true)
        #expect(errors(Self.workflow(forEach: "", extra: "maxConcurrency: 2")).contains {
            $0.contains("'maxConcurrency' applies to a step with 'forEach'")
        })
        #expect(errors(Self.workflow(extra: "maxConcurrency: 0")).first?.contains("from 1 to 64") == true)
        #expect(errors(Self.workflow(extra: "onItemFailure: ignore")).first?.contains("one of fail, skip") == true)
    }
}
