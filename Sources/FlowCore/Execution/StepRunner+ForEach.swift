import Tracing

/// Running a `forEach` step: its request once per item, at most `maxConcurrency` at a time.
extension StepRunner {
    /// Runs `planned` once per item of its `forEach` array and gathers the results: each output becomes the
    /// array of the items' values, in the order of the items, and the report holds every item's attempts,
    /// each with its item index.
    ///
    /// With `onItemFailure: fail` the first failed item fails the step and no further item starts (those
    /// running are cancelled); with `skip` a failed item is left out of the outputs; with `collect` it is
    /// `null` in them and its error is listed in the `errors` output.
    func runItems(of planned: PlannedStep, _ forEach: ForEach, scope: RunScope, span: (any Span)?) async
        -> StepResult
    {
        let started = clock.now
        var report = StepReport(
            id: planned.id, status: .succeeded, attempts: [], startedAfter: runStart.duration(to: started),
            duration: .zero, outputs: [:], error: nil)
        func failed(_ error: FlowError, response: DecodedResponse? = nil) -> StepResult {
            failure(error, of: planned, report: report, started: started, response: response)
        }
        let items: [JSONValue]
        do {
            switch try scope.value(of: forEach.items) {
            case .array(let array): items = array
            case let other:
                return failed(FlowError(
                    .binding, "'forEach' reads '\(forEach.items)', which is \(other.typeName) (\(other.serialized().prefix(40))), not an array"))
            }
        } catch {
            return failed(error)
        }
        report.itemCount = items.count

        // Each item's result, by index; the items start in order, at most maxConcurrency at once.
        var results = [StepResult?](repeating: nil, count: items.count)
        var firstFailure: Int?
        await withTaskGroup(of: (Int, StepResult).self) { group in
            var next = 0
            func startNext() {
                let index = next
                next += 1
                var itemScope = scope
                itemScope.item = items[index]
                itemScope.position.item = index
                group.addTask { (index, await runStep(planned, scope: itemScope, asRefresh: false, span: span)) }
            }
            while next < min(forEach.maxConcurrency, items.count) { startNext() }
            while let (index, result) = await group.next() {
                results[index] = result
                if let error = result.error, forEach.onItemFailure == .fail {
                    // The items cancelled because of the first failure are not failures of their own.
                    if firstFailure == nil || (error.code != .cancelled && index < firstFailure!) {
                        firstFailure = index
                    }
                    group.cancelAll()
                    continue
                }
                if firstFailure == nil, next < items.count { startNext() }
            }
        }

        for case let result? in results { report.attempts += result.report.attempts }
        report.duration = started.duration(to: clock.now)
        if let firstFailure, let result = results[firstFailure], var error = result.error {
            error.message = "item \(firstFailure): " + error.message
            return failed(error, response: result.failedResponse)
        }
        let collects = forEach.onItemFailure == .collect
        var outputs: [String: JSONValue] = [:]
        for output in planned.step.outputs {
            outputs[output.name.value] = .array(results.compactMap { result in
                guard let result, result.error == nil else { return collects ? .null : nil }
                return result.outputs[output.name.value] ?? .null
            })
        }
        if collects {
            outputs[ForEach.errorsOutput] = .array(results.enumerated().compactMap { index, result in
                result?.error.map { itemError($0, item: index) }
            })
        }
        report.outputs = redactor.redact(.object(outputs)).objectValue ?? [:]
        return StepResult(outputs: outputs, report: report)
    }

    /// The entry of the `errors` output for the failed item at `item`: its index, error kind, message with
    /// every secret redacted and, when a response arrived, its status.
    func itemError(_ error: FlowError, item: Int) -> JSONValue {
        var entry: [String: JSONValue] = [
            "item": .int(item), "code": .string(error.code.name), "message": .string(redactor.redact(error.message)),
        ]
        if let status = error.status { entry["status"] = .int(status) }
        return .object(entry)
    }
}
