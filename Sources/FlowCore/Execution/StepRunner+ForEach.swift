import Tracing

/// Running a `forEach` step: its request once per item, at most `maxConcurrency` at a time.
extension StepRunner {
    /// Runs `planned` once per item of its `forEach` array and gathers the results: each output becomes the
    /// array of the items' values, in the order of the items, and the report holds every item's attempts,
    /// each with its item index.
    ///
    /// With `onItemFailure: fail` the first failed item fails the step and no further item starts (those
    /// running are cancelled); with `skip` a failed item is left out of the outputs; with `collect` it is
    /// `null` in them and its error is listed in the `errors` output. A cancelled step starts no further item.
    ///
    /// This is the driver of an ``ItemStateMachine``, which makes those decisions: this runs the items it starts
    /// in a task group, keeps their results, and builds the step's outputs and report from them.
    func runItems(of planned: PlannedStep, _ forEach: ForEach, scope: RunScope, span: RunSpan?) async
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
                    .binding, "'forEach' reads '\(forEach.items)', which is \(other.typeNameWithArticle) (\(other.serialized().prefix(40))), not an array"))
            }
        } catch {
            return failed(error)
        }
        report.itemCount = items.count

        // Each item's result, by index. The machine decides which items start and when the step is done; this
        // runs them, at most maxConcurrency at a time, and keeps what they return.
        var results = [StepResult?](repeating: nil, count: items.count)
        let outcome = await withTaskGroup(of: (Int, StepResult).self) { group in
            var machine = ItemStateMachine(
                maxConcurrency: forEach.maxConcurrency, onItemFailure: forEach.onItemFailure)
            var action = machine.apply(.started(itemCount: items.count))
            while true {
                switch action {
                case .startItems(let indices):
                    for index in indices {
                        var itemScope = scope
                        itemScope.item = items[index]
                        itemScope.position.item = index
                        group.addTask {
                            (index, await runStep(planned, scope: itemScope, asRefresh: false, span: span))
                        }
                    }
                case .cancelRunningItems:
                    group.cancelAll()
                case .wait:
                    break
                case .finish(let outcome):
                    return outcome
                }
                // Until it finishes, the machine has items running: the group has a result to wait for.
                guard let (index, result) = await group.next() else {
                    preconditionFailure("the items of step '\(planned.id)' wait for nothing")
                }
                results[index] = result
                // A cancelled step starts no further item: the machine hears of the cancellation before the report
                // that would start one. The reporting item still counts as running, so the answer is to cancel the
                // running items, or to wait when a failure already did.
                if Task.isCancelled && !machine.cancelled, case .cancelRunningItems = machine.apply(.cancelled) {
                    group.cancelAll()
                }
                action = machine.apply(.itemFinished(
                    index: index, outcome: result.error.map { .failed($0.code) } ?? .succeeded))
            }
        }

        for case let result? in results { report.attempts += result.report.attempts }
        report.duration = started.duration(to: clock.now)
        switch outcome {
        case .failed(let item):
            let result = results[item]!
            var error = result.error!
            error.message = "item \(item): " + error.message
            return failed(error, response: result.failedResponse)
        case .cancelled(let itemsStarted):
            return failed(FlowError(.cancelled, "the run was cancelled before item \(itemsStarted) started"))
        case .completed:
            break
        }
        let collects = forEach.onItemFailure == .collect
        var outputs: [String: JSONValue] = [:]
        for output in planned.step.outputs {
            outputs[output.name.value] = .array(results.compactMap { result in
                guard let result, result.error == nil else { return collects ? .null : nil }
                return result.outputs.value(named: output.name.value) ?? .null
            })
        }
        if collects {
            outputs[ForEach.errorsOutput] = .array(results.enumerated().compactMap { index, result in
                result?.error.map { itemError($0, item: index) }
            })
        }
        report.outputs = redactor.redact(.object(outputs)).objectValue ?? [:]
        return StepResult(outputs: StepOutputs(outputs), report: report)
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
