import Tracing

/// Running a `repeat` or `paginate` step: its request again and again, one iteration at a time.
extension StepRunner {
    /// Runs `planned` iteration after iteration until its loop ends: a `repeat` step until its `until` holds
    /// (or its `while` stops holding) for a response, a `paginate` step until there is no next page. Each
    /// iteration is a whole run of the step, retries included; between two iterations the runner waits as the
    /// loop's pacing says. The report holds every iteration's attempts, each with its iteration index.
    ///
    /// A `repeat` step's outputs are its last iteration's; a `paginate` step's array outputs collect the
    /// items of every page, in order, and its other outputs are the last page's.
    ///
    /// This is the driver of a ``LoopStateMachine``, which decides which iteration starts, how long to wait
    /// before it and when the loop ends: this runs the iterations, works out whether each goes on and where the
    /// next page is, sleeps, and builds the outputs and the report.
    func runIterations(of planned: PlannedStep, scope: RunScope, span: RunSpan?) async -> StepResult {
        let started = clock.now
        let step = planned.step
        let maxIterations = step.repetition?.maxIterations ?? step.pagination?.maxPages ?? 1
        let pacing = step.repetition?.pacing ?? step.pagination?.pacing ?? LoopPacing(delay: .zero)
        let loop: StepReport.Loop = step.pagination == nil ? .repeat : .paginate
        let unit = loop.unit
        var report = StepReport(
            id: planned.id, status: .succeeded, attempts: [], startedAfter: runStart.duration(to: started),
            duration: .zero, outputs: [:], error: nil)
        report.loop = loop
        func failed(_ error: FlowError, response: DecodedResponse? = nil) -> StepResult {
            failure(error, of: planned, report: report, started: started, response: response)
        }

        var outputs: [String: JSONValue] = [:]
        // A paginated step's array outputs, collected in place: appending page after page to the array held
        // in `outputs` would copy everything collected so far at every page.
        var collected: [String: [JSONValue]] = [:]
        var cursor = PageCursor()
        // The error of the iteration that failed, for the machine's `finish(.failed)`.
        var iterationFailure: (error: FlowError, response: DecodedResponse?)?
        var machine = LoopStateMachine(maxIterations: maxIterations, pacing: pacing)
        var action = machine.apply(.started)
        iterations: while true {
            switch action {
            case .startIteration(let index, let page):
                var iterationScope = scope
                iterationScope.position.iteration = index
                iterationScope.position.page = page
                let result = await runStep(planned, scope: iterationScope, asRefresh: false, span: span)
                report.attempts += result.report.attempts
                report.iterationCount = index + 1
                if let error = result.error {
                    iterationFailure = (error, result.failedResponse)
                    action = machine.apply(.iterationFailed(index: index))
                    continue iterations
                }
                let goesOn: Bool
                if step.repetition != nil {
                    outputs = result.outputs.named
                    goesOn = result.loopGoesOn
                } else if let pagination = step.pagination {
                    for (name, value) in result.outputs.named {
                        switch value {
                        case .array(let items): collected[name, default: []].append(contentsOf: items)
                        // A last page without the list adds nothing.
                        case .null where collected[name] != nil: break
                        default:
                            collected[name] = nil
                            outputs[name] = value
                        }
                    }
                    var responseScope = scope
                    responseScope.response = result.response
                    do {
                        goesOn = try cursor.advance(
                            pagination, after: result, in: responseScope, redactor: redactor)
                    } catch {
                        iterationFailure = (error, nil)
                        action = machine.apply(.iterationFailed(index: index))
                        continue iterations
                    }
                } else {
                    outputs = result.outputs.named
                    goesOn = false
                }
                action = machine.apply(.iterationFinished(index: index, goesOn: goesOn, nextPage: cursor.page))
            case .sleep(let wait):
                do {
                    try await clock.sleep(for: wait)
                    action = machine.apply(.timerFired)
                } catch {
                    action = machine.apply(.cancelled)
                }
            case .finish(.completed):
                break iterations
            case .finish(.failed(let index)):
                // Named by the index the report's `iteration` and `-v`'s line give, so the message names an entry
                // there: an iteration that failed, or a page whose next page could not be worked out.
                var (error, response) = iterationFailure!
                error.message = "\(unit) \(index): " + error.message
                return failed(error, response: response)
            case .finish(.limitReached):
                let message: String
                if let repetition = step.repetition {
                    let condition = repetition.stop.condition
                    message = "step '\(planned.id)' reached maxIterations (\(maxIterations)) and its "
                        + "'\(repetition.stop.key)' condition (\(condition.text)) "
                        + (repetition.stop.key == "until" ? "still did not hold" : "still held")
                } else {
                    message = "step '\(planned.id)' fetched maxPages (\(maxIterations)) and the list goes on"
                        + (cursor.description(redactor: redactor).map { " (next: \($0))" } ?? "")
                }
                return failed(FlowError(.loopLimit, message))
            case .finish(.cancelled(let next)):
                return failed(FlowError(.cancelled, "the run was cancelled while waiting for \(unit) \(next)"))
            }
        }
        for (name, items) in collected { outputs[name] = .array(items) }
        report.duration = started.duration(to: clock.now)
        report.outputs = redactor.redact(.object(outputs)).objectValue ?? [:]
        return StepResult(outputs: StepOutputs(outputs), report: report)
    }
}

/// The next page of a paginated step, worked out from each page's response.
struct PageCursor {
    /// How the next page's request differs from the step's; `nil` for the first page.
    private(set) var page: PageRequest?
    /// The origin of the first page, the only one later pages may be fetched from.
    private var origin: String?
    /// The number of the page last fetched, with `next: page`.
    private var pageNumber: Int?

    /// Works out the page after the one `result` fetched; `false` when the list ends there.
    /// - Throws: ``FlowError`` when the next page cannot be fetched: a URL on another origin, a cursor that is
    ///   not a string or number, a page parameter that is not a number.
    mutating func advance(
        _ pagination: Pagination, after result: StepResult, in scope: RunScope, redactor: SecretRedactor
    ) throws(FlowError) -> Bool {
        let current = result.requestURL ?? ""
        if origin == nil { origin = NextPageLink.origin(of: current) }
        switch pagination.next {
        case .link:
            guard let header = result.response?.headers["Link"], let target = NextPageLink.target(in: header)
            else { return false }
            page = .url(try sameOrigin(NextPageLink.resolve(target, against: current), redactor: redactor))
        case .value(let expression, let param):
            let value: String
            switch try? scope.value(of: expression) {
            case nil, .null?: return false
            case .string(let text)?: value = text
            case .int(let number)?: value = String(number)
            case .bigInteger(let digits)?: value = digits
            case .double(let number)?: value = JSONValue.double(number).serialized()
            case let other?:
                throw FlowError(
                    .binding,
                    "'next' reads '\(expression)', which is \(other.typeNameWithArticle), not a "
                        + (param == nil ? "URL" : "cursor"))
            }
            if value.isEmpty { return false }
            if let param {
                page = .query(name: param.value, value: value)
            } else {
                page = .url(try sameOrigin(NextPageLink.resolve(value, against: current), redactor: redactor))
            }
        case .page(let param):
            let arrays = result.outputs.named.values.compactMap(\.arrayValue)
            if arrays.allSatisfy(\.isEmpty) { return false }
            if pageNumber == nil {
                let written = StepRequest(method: "GET", url: current).query.flatMap { query in
                    URLEncoding.parseQuery(query).last { $0.0 == param.value }?.1
                }
                guard let written else {
                    // The first page sent none, so it was page 1 and this one is page 2.
                    pageNumber = 2
                    page = .query(name: param.value, value: "2")
                    return true
                }
                guard let number = Int(written) else {
                    throw FlowError(
                        .binding,
                        "query parameter '\(param.value)' of the first page is '\(written)', not a page number")
                }
                pageNumber = number
            }
            pageNumber! += 1
            page = .query(name: param.value, value: String(pageNumber!))
        }
        return true
    }

    /// `url` when it is on the first page's origin; otherwise the step's credentials would go to another server.
    private func sameOrigin(_ url: String, redactor: SecretRedactor) throws(FlowError) -> String {
        guard let origin, NextPageLink.origin(of: url) == origin else {
            throw FlowError(
                .binding,
                "the next page is on another origin (\(redactor.redact(url: url))) than the first (\(origin ?? "?")); "
                    + "flowrun does not send the step's request, and its credentials, there")
        }
        return url
    }

    /// The next page, for messages: its URL (redacted) or query parameter.
    func description(redactor: SecretRedactor) -> String? {
        switch page {
        case .url(let url)?: redactor.redact(url: url)
        case .query(let name, let value)?: redactor.redact(url: "?\(name)=\(value)")
        case nil: nil
        }
    }
}

extension Repetition {
    /// Whether `response` ends the loop: `until` holds for it, or `while` does not.
    func ends(after response: DecodedResponse, in scope: RunScope) -> Bool {
        var scope = scope
        scope.response = response
        let holds = stop.condition.holds(in: scope)
        return switch stop {
        case .until: holds
        case .while: !holds
        }
    }
}
