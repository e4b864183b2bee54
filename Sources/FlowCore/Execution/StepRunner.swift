import Logging
import Tracing

/// Runs one step: builds its request, sends it through its interceptors and dispatcher, applies its
/// policy's timeouts and retries, checks and decodes the response, and binds outputs and vars.
struct StepRunner: Sendable {
    let plan: Plan
    let dispatchers: DispatcherRegistry
    let dispatcherOverride: String?
    let interceptorRegistry: InterceptorRegistry
    let clock: EngineClock
    let logger: Logger
    /// ``logger``'s level, read once per run. swift-log requires a handler's level to have value semantics, so it
    /// cannot change under this copy of the logger; reading it through the logger copies the handler out of its
    /// existential, which the debug and trace lines of every step would otherwise do each time.
    let logLevel: Logger.Level
    /// ``logger`` in the box the dispatchers' contexts share, made once per run.
    let runLogger: RunLogger
    let builder: RequestBuilder
    let validator: JSONSchemaValidator
    let redactor: SecretRedactor
    /// Makes concurrent refreshes share one call of the refresh step; `nil` for a plan without a refresh
    /// interceptor (``Plan/runsRefreshSteps``).
    let coordinator: RefreshCoordinator?
    let runStart: EngineClock.Instant
    let unixTime: @Sendable () -> Int64
    let jitter: @Sendable (Double) -> Double
    let secretVariables: Set<String>
    /// The reports of the refresh steps run inside other steps; `nil` for a plan without a refresh interceptor.
    let nestedReports: NestedStepReports?
    let circuitBreakers: CircuitBreakers
    let tracer: RunTracer
    let decoding: ResponseDecoding
    /// What a `workflow:` step needs to run the workflow it calls.
    let nestedRuns: NestedRunContext
    /// What an Arazzo step's response that its operation does not describe leads to.
    var responseConformance: ResponseConformance = .warn

    /// Runs `planned` in `scope`, in a `flowrun.step` span.
    /// - Parameters:
    ///   - planned: The step.
    ///   - scope: The values its expressions read (without a response).
    ///   - requester: The step whose refresh interceptor runs it, if one does; its own refresh interceptors are
    ///     then left out, and its report and span name the requester.
    func run(_ planned: PlannedStep, scope: RunScope, refreshFor requester: String? = nil) async -> StepResult {
        // Untraced, the step runs in this function's frame, not in an operation closure of `withSpan`.
        guard tracer.isOn else { return await run(planned, scope: scope, refreshFor: requester, in: nil) }
        return await tracer.withSpan("flowrun.step", ofKind: .internal) { span in
            await run(planned, scope: scope, refreshFor: requester, in: span)
        }
    }

    /// ``run(_:scope:refreshFor:)`` in the step's span, if any.
    ///
    /// Inlined, like the attempt loop and the attempt's span below: each async function a step goes through is a
    /// frame allocated and freed on the task, and a hop in and out of it, at every step.
    @inline(__always)
    private func run(_ planned: PlannedStep, scope: RunScope, refreshFor requester: String?, in span: RunSpan?)
        async -> StepResult
    {
        let asRefresh = requester != nil
        if logLevel <= .debug { logger.debug("step started", metadata: ["step": "\(planned.id)"]) }
        let result =
            if let callee = planned.subWorkflow {
                await runSubWorkflow(planned, callee, scope: scope)
            } else if let forEach = planned.step.forEach, scope.item == nil {
                await runItems(of: planned, forEach, scope: scope, span: span)
            } else if planned.step.repetition != nil || planned.step.pagination != nil {
                await runIterations(of: planned, scope: scope, span: span)
            } else {
                await runStep(planned, scope: scope, asRefresh: asRefresh, span: span)
            }
        if let span { RunTracer.annotate(step: span.span, report: result.report, refreshFor: requester) }
        if logLevel <= .debug {
            logger.debug(
                "step finished",
                metadata: [
                    "step": "\(planned.id)", "status": "\(result.report.status.rawValue)",
                    "attempts": "\(result.report.attempts.count)", "duration": "\(result.report.duration)",
                    "error": "\(result.error.map(\.code.name) ?? "none")",
                ])
        }
        return result
    }

    /// Runs `planned`: its attempts, within the total timeout, then its outputs or error.
    @inline(__always)
    func runStep(_ planned: PlannedStep, scope: RunScope, asRefresh: Bool, span: RunSpan?) async
        -> StepResult
    {
        let started = clock.now
        let startedAfter = runStart.duration(to: started)
        var log = AttemptLog()
        // One key per step run, the same on every attempt, so the server can recognise a retried request.
        let idempotencyKey = planned.step.idempotencyKey ? Self.idempotencyKey(seed: scope.stepSeed, scope.position) : nil
        // The total timeout needs no timer of its own: time passes only in attempts, each limited to what is
        // left of it, and in retry delays, which are never started when they would end after it.
        let deadline = planned.timeLimits?.total.map { started.advanced(by: $0) }
        let outcome = await attempts(
            planned, scope: scope, asRefresh: asRefresh, idempotencyKey: idempotencyKey, started: started,
            deadline: deadline, log: &log, stepSpan: span)
        // The step ends when its last attempt does: that attempt read the clock as it ended.
        let last = log.attempts.indices.last
        let duration = last.map { log.attempts[$0].startedAfter + log.attempts[$0].duration - startedAfter }
            ?? started.duration(to: clock.now)
        // Each result is made in the return statement, its report inside it: a result or report kept in a
        // variable of this async function is copied out of it, every string and array, when returned.
        switch outcome {
        case .success(let outputs):
            return StepResult(
                outputs: outputs,
                report: StepReport(
                    id: planned.id, status: .succeeded, attempts: log.attempts, startedAfter: startedAfter,
                    duration: duration, outputs: outputs.redacted(by: redactor), error: nil),
                response: log.response, requestURL: log.requestURL, loopGoesOn: log.loopGoesOn,
                successRule: planned.step.isArazzo
                    ? successRule(of: planned, response: log.response, scope: scope) : nil)
        case .failure(let error):
            var error = redactor.redact(error)
            error.stepID = error.stepID ?? planned.id
            error.attempt = error.attempt ?? last.map { log.attempts[$0].number }
            return StepResult(
                outputs: [:],
                report: StepReport(
                    id: planned.id, status: .failed, attempts: log.attempts, startedAfter: startedAfter,
                    duration: duration, outputs: [:], error: error),
                error: error, failedResponse: log.failedResponse)
        }
    }

    /// The attempt loop: the driver of the step's ``AttemptStateMachine``, which decides whether and when to try
    /// again; this runs the attempts, sleeps, and keeps the reports, logs and spans.
    ///
    /// Each attempt runs in an `HTTP <METHOD>` client span; the delay before a retry is outside
    /// it, recorded as a `flowrun.retry` event of the step's span.
    @inline(__always)
    private func attempts(
        _ planned: PlannedStep, scope: RunScope, asRefresh: Bool, idempotencyKey: String?, started: EngineClock.Instant,
        deadline: EngineClock.Instant?, log: inout AttemptLog, stepSpan: RunSpan?
    ) async -> Result<StepOutputs, FlowError> {
        let rules = planned.retryRules
        var machine = AttemptStateMachine(
            retry: rules, attemptTimeout: planned.timeLimits?.attempt, totalTimeout: planned.timeLimits?.total,
            idempotent: planned.step.idempotent)
        // Decided once per step, so that a failure reads only what some rule can use.
        let jitters = rules.contains { $0.jitter != .none }
        let readsRetryAfter = rules.contains { $0.retryAfter.honor }
        var outputs = StepOutputs.none
        // The failed attempt the machine is deciding about: its report goes into the log with the decision.
        var failed: FailedAttempt?
        var action = machine.apply(.started)
        while true {
            switch action {
            case .startAttempt(let current):
                // The first attempt starts when the step does; a retry after its delay, when the clock says.
                var outcome = AttemptOutcome(result: .failure(Self.didNotRun))
                let attemptStart = current == 1 ? started : clock.now
                // Made here and filled in by the attempt, so that it moves into the log uncopied.
                var attemptReport = AttemptReport(
                    number: current, method: planned.step.request.method.value, url: "", status: nil,
                    startedAfter: runStart.duration(to: attemptStart), duration: .zero)
                await tracedAttempt(
                    planned, scope: scope, asRefresh: asRefresh, idempotencyKey: idempotencyKey, deadline: deadline,
                    startingAt: attemptStart, machine: &machine, into: &outcome, report: &attemptReport)
                switch outcome.result {
                case .success(let bound):
                    log.append(consume attemptReport)
                    log.response = outcome.decoded
                    log.requestURL = outcome.request?.url
                    log.loopGoesOn = outcome.loopGoesOn
                    outputs = bound
                    action = machine.apply(.attemptSucceeded(number: current))
                case .failure(let error):
                    log.failedResponse = outcome.decoded
                    failed = FailedAttempt(report: consume attemptReport, error: error)
                    var failure = AttemptFailure(
                        error, method: outcome.request?.method,
                        hasIdempotencyKey: outcome.request?.headers["Idempotency-Key"] != nil,
                        conditionsHeld: conditionsHeld(in: rules, for: outcome.decoded, in: scope))
                    if readsRetryAfter, let response = outcome.response {
                        failure.retryAfter = RetryAfter.delay(in: response.headers)
                    }
                    action = machine.apply(.attemptFailed(
                        number: current, failure: failure, runCancelled: Task.isCancelled,
                        now: started.duration(to: clock.now), random: jitters ? jitter(1) : 0))
                }
            case .resend:
                preconditionFailure("a resend is asked for and performed inside its attempt")
            case .sleep(let delay):
                guard let failure = failed else { preconditionFailure("a delay without a failed attempt") }
                failed = nil
                var attemptReport = failure.report
                let error = failure.error
                attemptReport.retryDelay = delay
                log.append(attemptReport)
                let number = attemptReport.number
                stepSpan?.span.addEvent(SpanEvent(
                    name: "flowrun.retry",
                    attributes: [
                        "flowrun.attempt": .int(Int64(number)),
                        "flowrun.retry.delay_ms": .int(RunTracer.milliseconds(delay)),
                        "error.type": .string(error.code.name),
                    ]))
                logger.info(
                    "retrying after failure",
                    metadata: ["step": "\(planned.id)", "attempt": "\(number)", "delay": "\(delay.roundedText)",
                               "error": "\(error.code)"])
                do {
                    try await clock.sleep(for: delay)
                    action = machine.apply(.timerFired)
                } catch {
                    action = machine.apply(.cancelled)
                }
            case .finish(.success):
                return .success(outputs)
            case .finish(.failure(let error, let stop)):
                // After a cancelled wait the failed attempt is already in the log, recorded as retried.
                guard var attemptReport = failed?.report else { return .failure(error) }
                if case .refused(let reason, let reported) = stop {
                    attemptReport.retryRefused = reported ? reason : nil
                    logger.log(
                        level: reported ? .info : .debug, "not retrying",
                        metadata: ["step": "\(planned.id)", "attempt": "\(attemptReport.number)", "reason": "\(reason)",
                                   "error": "\(error.code)"])
                }
                log.append(attemptReport)
                return .failure(error)
            }
        }
    }

    /// The attempt `report` numbers, in an `HTTP <METHOD>` client span, into `outcome` and `report` (both kept by
    /// the caller: returned, they were copied out of the span's closure and again into the caller), the report's
    /// error given the step, attempt and request, and redacted; logged at trace, or at debug when it failed.
    @inline(__always)
    private func tracedAttempt(
        _ planned: PlannedStep, scope: RunScope, asRefresh: Bool, idempotencyKey: String?,
        deadline: EngineClock.Instant?, startingAt attemptStart: EngineClock.Instant, machine: inout AttemptStateMachine,
        into outcome: inout AttemptOutcome, report: inout AttemptReport
    ) async {
        // The attempt runs in the span's operation or, untraced, directly: no closure and no frame of its own for
        // an untraced attempt.
        if tracer.isOn {
            await tracer.withSpan("HTTP \(report.method)", ofKind: .client) { span in
                await reportedAttempt(
                    planned, scope: scope, asRefresh: asRefresh, idempotencyKey: idempotencyKey, deadline: deadline,
                    startingAt: attemptStart, machine: &machine, into: &outcome, report: &report, in: span)
            }
            logFinished(report, of: planned)
        } else {
            await reportedAttempt(
                planned, scope: scope, asRefresh: asRefresh, idempotencyKey: idempotencyKey, deadline: deadline,
                startingAt: attemptStart, machine: &machine, into: &outcome, report: &report, in: nil)
        }
    }

    /// ``tracedAttempt(_:scope:asRefresh:idempotencyKey:deadline:startingAt:machine:into:report:)`` in the
    /// attempt's span, if any: the attempt, and its `report` filled in.
    @inline(__always)
    private func reportedAttempt(
        _ planned: PlannedStep, scope: RunScope, asRefresh: Bool, idempotencyKey: String?,
        deadline: EngineClock.Instant?, startingAt attemptStart: EngineClock.Instant, machine: inout AttemptStateMachine,
        into outcome: inout AttemptOutcome, report: inout AttemptReport, in span: RunSpan?
    ) async {
        let current = report.number
        report.item = scope.position.item
        report.iteration = scope.position.iteration
        await attempt(
            planned, number: current, scope: scope, asRefresh: asRefresh, idempotencyKey: idempotencyKey,
            deadline: deadline, machine: &machine, into: &outcome)
        report.duration = attemptStart.duration(to: clock.now)
        // The URL that went out, with the query parameters that interceptors added (redacted); the path
        // as written when the request could not be built, so a report never shows a bare "GET ".
        report.url = (outcome.sent?.url ?? outcome.request?.url).map { redactor.redact(url: $0) }
            ?? Self.writtenPath(of: planned)
        report.status = outcome.response?.status
        report.redirects = (outcome.response?.redirects ?? []).map {
            StepResponse.Redirect(status: $0.status, url: redactor.redact(url: $0.url))
        }
        report.refresh = outcome.refresh
        // Redacted like the error: a validation message may quote the body, and the body may hold a secret.
        if !outcome.warnings.isEmpty { report.warnings = outcome.warnings.map { redactor.redact($0) } }
        if case .failure(var error) = outcome.result {
            error.stepID = planned.id
            error.attempt = current
            error.request = error.request ?? report.method + " " + report.url
            error = redactor.redact(error)
            report.error = error
            outcome.result = .failure(error)
        }
        if let span {
            RunTracer.annotate(attempt: span.span, report: report)
        } else {
            // Untraced, there is no span to end first: the attempt is logged here.
            logFinished(report, of: planned)
        }
    }

    /// Logs the end of the attempt `report` describes, after its span, if it has one, has ended.
    @inline(__always)
    private func logFinished(_ report: borrowing AttemptReport, of planned: PlannedStep) {
        let level: Logger.Level = report.error == nil ? .trace : .debug
        guard logLevel <= level else { return }
        logger.log(
            level: level, "attempt finished",
            metadata: [
                "step": "\(planned.id)", "attempt": "\(report.number)", "url": "\(report.url)",
                "status": "\(report.status.map(String.init) ?? "none")",
                "error": "\(report.error.map(\.code.name) ?? "none")",
            ])
    }

    /// The indexes of the retry rules in `rules` whose `if` condition holds for `response`, read in `scope`.
    private func conditionsHeld(in rules: [RetryRule], for response: DecodedResponse?, in scope: RunScope) -> Set<Int> {
        guard rules.contains(where: { $0.when.isGuarded }) else { return [] }
        var scope = scope
        scope.response = response
        var held: Set<Int> = []
        for (index, rule) in rules.enumerated() where rule.when.isGuarded && rule.when.guardHolds(in: scope) {
            held.insert(index)
        }
        return held
    }

    /// An attempt that failed, while the attempt machine decides whether to try again.
    ///
    /// An object: the step keeps an optional one from attempt to attempt, and an optional of a struct as large as
    /// ``AttemptReport`` (or a tuple) is destroyed through its type's runtime metadata, at every step, failed or
    /// not; an optional reference is a pointer, and only a failure allocates one.
    private final class FailedAttempt {
        let report: AttemptReport
        let error: FlowError

        init(report: consuming AttemptReport, error: FlowError) {
            self.report = report
            self.error = error
        }
    }

    /// What one attempt produced.
    private struct AttemptOutcome {
        var request: StepRequest?
        /// The request as the dispatcher last received it, after the interceptors.
        var sent: StepRequest?
        var response: StepResponse?
        var decoded: DecodedResponse?
        /// The response that asked for new credentials, when the request was replayed after a refresh.
        var refresh: RefreshExchange?
        /// For an iteration of a `repeat` step: whether the loop goes on after this response.
        var loopGoesOn = false
        /// How the response differs from its Arazzo step's OpenAPI operation, when the run only warns.
        var warnings: [String] = []
        var result: Result<StepOutputs, FlowError>
    }

    /// One attempt, into `outcome`: build, send through the chain (again, when the machine says so after a
    /// refresh), check, bind.
    @inline(__always)
    private func attempt(
        _ planned: PlannedStep, number: Int, scope: RunScope, asRefresh: Bool, idempotencyKey: String?,
        deadline: EngineClock.Instant?, machine: inout AttemptStateMachine, into outcome: inout AttemptOutcome
    ) async {
        let dispatcherName = dispatcherOverride ?? planned.dispatcher
        guard let dispatcher = dispatchers[dispatcherName] else {
            outcome.result = .failure(FlowError(
                .unsupported,
                "no dispatcher named '\(dispatcherName)' is registered; registered: \(dispatchers.names.joined(separator: ", "))"))
            return
        }
        let breaker = planned.circuitBreaker
        let breakerKey = breaker.map { CircuitBreakers.key(for: planned, $0, in: plan) }
        // Only a call the breaker let through has an outcome for it: a request that could not be built
        // says nothing about the server, and must not count as a success (or close a half-open breaker).
        var passedBreaker = false
        do {
            var request = try builder.build(planned, in: scope)
            if let page = scope.position.page { request.url = page.applied(to: request.url) }
            if let idempotencyKey { request.headers.set("Idempotency-Key", idempotencyKey) }
            // Before the interceptors, so a signing interceptor signs the headers that are sent.
            tracer.inject(into: &request.headers)
            outcome.request = request
            if logLevel <= .trace {
                logger.trace(
                    "sending request",
                    metadata: [
                        "step": "\(planned.id)", "attempt": "\(number)", "method": "\(request.method)",
                        "url": "\(redactor.redact(url: request.url))",
                    ])
            }
            if let breaker, let breakerKey {
                try circuitBreakers.acquire(breakerKey, breaker)
                passedBreaker = true
            }
            var response: StepResponse
            // Without interceptors the request is sent as built: nothing to record.
            let sent = planned.interceptors.isEmpty ? nil : SentRequestRecord()
            defer { outcome.sent = sent?.last }
            do {
                if planned.interceptors.isEmpty, planned.timeLimits == nil, deadline == nil {
                    // Nothing around the call and no time limit (no timeout, no run deadline): the dispatcher is
                    // called as `send` would call it, without a frame for `send`.
                    response = try await Self.dispatch(
                        request, context: dispatchContext(planned, attempt: number, scope: scope), via: dispatcher)
                } else {
                    response = try await send(
                        request, planned, attempt: number, scope: scope, deadline: deadline, isReplay: false,
                        asRefresh: asRefresh, via: dispatcher, recordingIn: sent)
                }
            } catch let replay as ReplayRequest {
                outcome.refresh = replay.exchange
                guard case .resend = machine.apply(.refreshDone(number: number)) else {
                    preconditionFailure("a refreshed attempt is sent again")
                }
                logger.info(
                    "replaying the request with refreshed credentials",
                    metadata: [
                        "step": "\(planned.id)", "attempt": "\(number)", "status": "\(replay.exchange.status)",
                        "refresh-step": "\(replay.exchange.refreshStep)",
                    ])
                response = try await send(
                    request, planned, attempt: number, scope: scope, deadline: deadline, isReplay: true,
                    asRefresh: asRefresh, via: dispatcher, recordingIn: sent)
            } catch let failed as RefreshFailed {
                outcome.refresh = failed.exchange
                throw failed.error
            }
            outcome.response = response
            let read = decoding.decode(response, parsing: planned.step.parse?.value, url: request.url)
            outcome.decoded = read.response
            try check(read.response, decodeError: read.error, raw: response, of: planned, warnings: &outcome.warnings)
            try checkCriteria(read.response, raw: response, of: planned, scope: scope)
            try checkPending(read.response, raw: response, of: planned, scope: scope)
            if let repetition = planned.step.repetition, scope.position.iteration != nil,
                !repetition.ends(after: read.response, in: scope)
            {
                // An iteration that does not end the loop binds nothing: its response is not the one waited for.
                outcome.loopGoesOn = true
                outcome.result = .success([:])
            } else {
                outcome.result = .success(try bind(read.response, of: planned, scope: scope))
            }
        } catch let error as FlowError {
            outcome.result = .failure(error)
        } catch is CancellationError {
            outcome.result = .failure(FlowError(.cancelled, "the run was cancelled"))
        } catch {
            outcome.result = .failure(FlowError(.interceptor, "\(error)", underlyingError: error))
        }
        if let breaker, let breakerKey, passedBreaker {
            switch outcome.result {
            case .success: circuitBreakers.record(breakerKey, breaker, error: nil)
            case .failure(let error) where error.code == .circuitOpen: break
            case .failure(let error) where error.code == .pending: circuitBreakers.record(breakerKey, breaker, error: nil)
            case .failure(let error) where error.code == .cancelled: circuitBreakers.release(breakerKey)
            case .failure(let error): circuitBreakers.record(breakerKey, breaker, error: error)
            }
        }
    }

    /// Sends `request` through the step's interceptors to the dispatcher, within the attempt timeout and
    /// what is left of the step's total timeout, whichever ends first.
    ///
    /// The dispatcher's context is made here, for each send (a replay after a refresh makes the same one again):
    /// made by the attempt and handed down, it was copied on the way, a dozen reference counts each time.
    @inline(__always)
    private func send(
        _ request: StepRequest, _ planned: PlannedStep, attempt number: Int, scope: RunScope,
        deadline: EngineClock.Instant?, isReplay: Bool, asRefresh: Bool, via dispatcher: any Dispatcher,
        recordingIn sent: SentRequestRecord?
    ) async throws -> StepResponse {
        let interceptors = try makeInterceptors(planned, scope: scope, isReplay: isReplay, asRefresh: asRefresh)
        var context = dispatchContext(planned, attempt: number, scope: scope)
        var limit = AttemptTimeLimit.sooner(
            attempt: context.attemptTimeout, total: planned.timeLimits?.total, deadline: deadline,
            now: clock.now)
        if let handedOver = limit, clock.isContinuous, dispatcher.enforcesTimeLimits,
            !planned.interceptors.contains(where: \.mayWaitOutsideTheDispatcher)
        {
            // The dispatcher ends the request at the deadline itself: no child task, no timer of the engine's.
            guard handedOver.duration > .zero else { throw handedOver.error }
            context.callerEnforcesAttemptTimeout = false
            context.deadline = AttemptDeadline(instant: .now + handedOver.duration, error: handedOver.error)
            limit = nil
        }
        // Nothing around the call: the dispatcher is called directly, without a chain of closures to build.
        if interceptors.isEmpty, limit == nil {
            return try await Self.dispatch(request, context: context, via: dispatcher)
        }
        let built = request.headers
        var next: @Sendable (StepRequest, StepContext) async throws -> StepResponse = { request, context in
            sent?.record(request)
            var context = context
            if !interceptors.isEmpty { context.headersBeforeInterceptors = built }
            return try await Self.dispatch(request, context: context, via: dispatcher)
        }
        for interceptor in interceptors.reversed() {
            let tail = next
            next = { request, context in try await interceptor.intercept(request, context: context, next: tail) }
        }
        let chain = next
        guard let limit else { return try await chain(request, context) }
        let limitedContext = context
        let result: Result<StepResponse, any Error> = await withTimeLimit(limit.duration, timers: clock.timers) {
            do { return .success(try await chain(request, limitedContext)) } catch { return .failure(error) }
        } onTimeout: {
            .failure(limit.error)
        }
        return try result.get()
    }

    /// The context of attempt `number` of `planned` for its interceptors and dispatcher; one with an attempt
    /// timeout says the caller enforces it until ``send(_:_:attempt:scope:deadline:isReplay:asRefresh:via:recordingIn:)``
    /// hands the deadline to the dispatcher.
    private func dispatchContext(_ planned: PlannedStep, attempt number: Int, scope: RunScope) -> StepContext {
        var context = StepContext(
            stepID: planned.id, attempt: number, attemptTimeout: planned.timeLimits?.attempt,
            logger: runLogger, redactor: redactor)
        // The chain is cancelled when the attempt timeout passes.
        context.callerEnforcesAttemptTimeout = context.attemptTimeout != nil
        context.item = scope.position.item
        context.iteration = scope.position.iteration
        return context
    }

    /// Calls the dispatcher, its errors as flowrun's: a cancellation as `cancelled`, anything else that is not
    /// a ``FlowError`` as `transport`.
    @inline(__always)
    private static func dispatch(_ request: StepRequest, context: StepContext, via dispatcher: any Dispatcher)
        async throws -> StepResponse
    {
        do {
            return try await dispatcher.dispatch(request, context: context)
        } catch let error as FlowError {
            throw error
        } catch is CancellationError {
            throw FlowError(.cancelled, "the run was cancelled")
        } catch {
            throw FlowError(.transport, "\(error)", underlyingError: error)
        }
    }

    /// The step's interceptors, made for this call: each declared one by its factory in the registry, the
    /// built-in kinds' and the program's alike.
    private func makeInterceptors(_ planned: PlannedStep, scope: RunScope, isReplay: Bool, asRefresh: Bool) throws
        -> [any Interceptor]
    {
        guard !planned.interceptors.isEmpty else { return [] }
        // The closure that runs a refresh step holds a copy of this runner: made only for a chain that can
        // refresh, not for every attempt of every step with interceptors.
        var runRefreshStep = Self.noRefreshStep
        if planned.interceptors.contains(where: \.mayRunSteps) {
            let requester = planned.id
            runRefreshStep = { stepID in try await self.refresh(using: stepID, scope: scope, for: requester) }
        }
        let chain = InterceptorSetup.Chain(
            stepID: planned.id, scope: scope, redactor: redactor,
            engine: BuiltInInterceptorSupport(
                coordinator: coordinator, isReplay: isReplay, asRefresh: asRefresh, runRefreshStep: runRefreshStep,
                unixTime: unixTime))
        return try planned.interceptors.compactMap { declaration -> (any Interceptor)? in
            let name = declaration.factoryName
            guard let factory = interceptorRegistry.factory(for: declaration) else {
                throw FlowError(
                    .unsupported,
                    "no interceptor named '\(name.value)' is registered (used by '\(declaration.name.value)')",
                    at: name.location)
            }
            var arguments: [String: JSONValue] = [:]
            for argument in declaration.arguments { arguments[argument.name.value] = try scope.evaluate(argument.value) }
            let setup = InterceptorSetup(declaration: declaration, arguments: arguments, chain: chain)
            let interceptor: any Interceptor
            do {
                interceptor = try factory(setup)
            } catch {
                throw FlowError(
                    .interceptor, "interceptor '\(name.value)' rejected its arguments: \(FlowError.reason(of: error))",
                    at: name.location, underlyingError: error)
            }
            // A metatype comparison, not an `is` cast: the cast goes through the runtime's dynamic-cast machinery.
            return type(of: interceptor) == OmittedInterceptor.self ? nil : interceptor
        }
    }

    /// The outcome of an attempt until it has one; made once, as every error is a box to allocate.
    private static let didNotRun = FlowError(.cancelled, "the attempt did not run")

    /// The refresh-step runner of a chain that has no refresh interceptor: never called.
    private static let noRefreshStep: @Sendable (String) async throws -> Void = { _ in }

    /// Runs the on-demand refresh step, which updates vars through its `set`.
    private func refresh(using stepID: String, scope: RunScope, for requester: String) async throws {
        guard let step = plan.step(stepID) else {
            throw FlowError(.interceptor, "the refresh step '\(stepID)' does not exist")
        }
        let result = await run(step, scope: scope, refreshFor: requester)
        // Set here, not in `run`: a result changed in a variable of that async function is copied out of it.
        var report = result.report
        report.refreshFor = requester
        assert(nestedReports != nil, "a refresh step runs in a plan that runs none")
        nestedReports?.append(report)
        if let error = result.error {
            throw FlowError(
                .interceptor, "refreshing credentials with step '\(stepID)' failed: \(error.message)",
                underlyingError: error)
        }
    }

    /// Checks the status against the declared responses, and the body against the declared type.
    private func check(
        _ decoded: DecodedResponse, decodeError: FlowError?, raw: StepResponse, of planned: PlannedStep,
        warnings: inout [String]
    ) throws(FlowError) {
        if planned.step.isArazzo, let criteria = planned.step.successCriteria {
            // An Arazzo step: its criteria judge the response (``checkCriteria``), and without criteria a 2xx
            // status is a success. Its body is not validated against the operation's schema.
            let success = (200..<300).contains(decoded.status)
            if let decodeError, success { throw decodeError }
            try checkConformance(decoded, raw: raw, of: planned, into: &warnings)
            if criteria.isEmpty && !success { throw Self.statusFailure(decoded, declared: nil, raw: raw) }
            return
        }
        // By position: a copy of the case (its status, schema and content types) would be made and destroyed
        // for every response.
        let cases = planned.step.responses
        let declared = ResponseMatcher.position(of: decoded.status, in: cases)
        let success = declared.map { cases[$0].status.value.isSuccess } ?? (200..<300).contains(decoded.status)
        if let decodeError, success { throw decodeError }
        guard success else { throw Self.statusFailure(decoded, declared: declared.map { cases[$0] }, raw: raw) }
        if let declared {
            let schema = cases[declared].schema
            let failures = validator.validate(decoded.body, against: schema)
            if !failures.isEmpty {
                let problems = failures.map(\.description).joined(separator: "; ")
                if let reading = decoded.reading, reading.isLikelyMislabelledJSON,
                    failures.contains(where: { $0.pointer.tokens.isEmpty && $0.rule == "type" })
                {
                    // Text or bytes by its content type, where the step declares another JSON type: a body the
                    // step cannot decode, most likely JSON under the wrong label.
                    throw FlowError(
                        .decode,
                        "the response (status \(decoded.status)) was read as \(reading.description) and does not "
                            + "match its declared type: \(problems); if the server sends JSON under another "
                            + "content type, add 'parse: json' to the step's 'response'",
                        status: decoded.status, excerpt: Self.excerpt(raw.body))
                }
                let reading = decoded.reading.flatMap { reading in
                    reading.format == .json ? nil : "; the body was read as \(reading.description)"
                } ?? ""
                throw FlowError(
                    .validation,
                    "the response (status \(decoded.status)) does not match its declared type: " + problems + reading,
                    status: decoded.status, excerpt: Self.excerpt(raw.body))
            }
        }
    }

    /// Compares an Arazzo step's response with what its OpenAPI operation describes (its ``Step/responses``):
    /// status, content type, body. A mismatch is added to `warnings`, or thrown as a `validation` error, as
    /// ``responseConformance`` says.
    private func checkConformance(
        _ decoded: DecodedResponse, raw: StepResponse, of planned: PlannedStep, into warnings: inout [String]
    ) throws(FlowError) {
        guard responseConformance != .off, !planned.step.responses.isEmpty else { return }
        var problems: [String] = []
        if let declared = ResponseMatcher.match(decoded.status, in: planned.step.responses) {
            let received = raw.headers["Content-Type"].map { value in
                String(value.prefix { $0 != ";" }.filter { $0 != " " && $0 != "\t" }).lowercased()
            }
            let listed = declared.contentTypes.map { $0.lowercased() }
            if !listed.isEmpty, !listed.contains("*/*"), let received, !listed.contains(where: { type in
                type == received || (type.hasSuffix("/*") && received.hasPrefix(type.dropLast()))
            }) {
                problems.append("its content type \(received) is not one the operation describes for status "
                    + "\(declared.status.value) (\(listed.joined(separator: ", ")))")
            }
            let failures = validator.validate(decoded.body, against: declared.schema)
            if !failures.isEmpty {
                problems.append("its body does not match the schema the operation describes for status "
                    + "\(declared.status.value): " + failures.map(\.description).joined(separator: "; "))
            }
        } else {
            let described = planned.step.responses.map(\.status.value.description).joined(separator: ", ")
            problems.append("status \(decoded.status) is not one the operation describes (\(described))")
        }
        guard !problems.isEmpty else { return }
        let lines = problems.map { "the response does not conform to the OpenAPI document: " + $0 }
        if responseConformance == .error {
            throw FlowError(
                .validation, lines.joined(separator: "; "), status: decoded.status, excerpt: Self.excerpt(raw.body))
        }
        warnings += lines
    }

    /// The `http` failure of a response whose status is not a success: `status 404 (NotFound): no such user`.
    private static func statusFailure(_ decoded: DecodedResponse, declared: ResponseCase?, raw: StepResponse)
        -> FlowError
    {
        var message = "status \(decoded.status)"
        if let declared, case .some(let ref) = declared.schema.ref?.value {
            message += " (\(ref))"
        }
        if case .object(let members) = decoded.body,
            let text = (members["message"] ?? members["error"])?.stringValue
        {
            message += ": \(text)"
        }
        return FlowError(.httpStatus, message, status: decoded.status, excerpt: Self.excerpt(raw.body))
    }

    /// Fails with `criteria` when one of an Arazzo step's `successCriteria` does not hold for the response.
    private func checkCriteria(
        _ response: DecodedResponse, raw: StepResponse, of planned: PlannedStep, scope: RunScope
    ) throws(FlowError) {
        guard planned.step.isArazzo, let criteria = planned.step.successCriteria, !criteria.isEmpty else { return }
        var scope = scope
        scope.response = response
        guard let index = scope.firstUnmet(criteria) else { return }
        let criterion = criteria[index].value
        let context = criterion.context.map { " (context \($0))" } ?? ""
        throw FlowError(
            .criteria,
            "success criterion \(index + 1) of \(criteria.count) does not hold for the response (status "
                + "\(response.status)): \(criterion.condition)\(context)",
            status: response.status, excerpt: Self.excerpt(raw.body))
    }

    /// The first of the step's success rules (Arazzo's `onSuccess`) whose criteria hold for its successful
    /// `response`, by position.
    func successRule(of planned: PlannedStep, response: DecodedResponse?, scope: RunScope) -> Int? {
        let rules = planned.step.onSuccess
        guard !rules.isEmpty else { return nil }
        var scope = scope
        scope.response = response
        return rules.firstIndex { scope.holds($0.criteria) }
    }

    /// Evaluates the step's outputs and `set` against the response, updating the run's vars.
    private func bind(_ response: DecodedResponse, of planned: PlannedStep, scope: RunScope) throws(FlowError)
        -> StepOutputs
    {
        // Made only for a value not read straight from the body (see ``evaluate(_:with:in:scope:)``).
        var responseScope: RunScope?
        // By position among the names the plan keeps the step's outputs under, which are its declared outputs
        // in their order: the run records them without a lookup by name (see ``StepOutputs``).
        let declared = planned.step.outputs
        // Appended rather than made at their count: `Array(repeating:count:)` looks up the array's generic
        // metadata at every call.
        var values: [JSONValue?] = []
        // An Arazzo step's output that reads nothing is absent, as Arazzo reads it; a step reading it fails then.
        let absentWhenUnread = planned.step.isArazzo
        let pointers = planned.responseBodyPointers
        for index in declared.indices {
            // Read straight from the body when it is there; otherwise evaluated, which says why it is not.
            if let pointer = pointers[index], let value = pointer.resolve(in: response.body) {
                values.append(value)
                continue
            }
            do throws(FlowError) {
                values.append(
                    try Self.evaluate(declared[index].value, with: response, in: &responseScope, scope: scope))
            } catch where absentWhenUnread && error.code == .binding {
                values.append(nil)
            }
        }
        // The plan's names are the declared ones, in their order, for every step it keeps outputs of (plus
        // `errors` for a `forEach` that collects them); a compensation's request is kept under none.
        let names = planned.outputNames.count == declared.count ? planned.outputNames : declared.map(\.name.value)
        let outputs = StepOutputs(names: names, values: values)
        var updates: [(String, JSONValue)] = []
        for binding in planned.step.set {
            updates.append(
                (binding.name.value, try Self.evaluate(binding.value, with: response, in: &responseScope, scope: scope)))
        }
        for (name, value) in updates {
            if secretVariables.contains(name) { redactor.add(value) }
            scope.variables.set(name, value)
        }
        return outputs
    }

    /// `template`'s value after `response`, in `responseScope`: `scope` with the response, made the first time a
    /// value needs it. A scope is a handful of references to copy, and most steps need none.
    @inline(__always)
    private static func evaluate(
        _ template: ValueTemplate, with response: DecodedResponse, in responseScope: inout RunScope?, scope: RunScope
    ) throws(FlowError) -> JSONValue {
        if responseScope == nil {
            var made = scope
            made.response = response
            responseScope = made
        }
        return try responseScope!.evaluate(template)
    }

    /// Fails with `pending` when a successful response is one a retry rule's `if` condition holds for: the
    /// thing polled is not ready yet, so the attempt binds nothing and the rule retries it.
    private func checkPending(_ response: DecodedResponse, raw: StepResponse, of planned: PlannedStep, scope: RunScope)
        throws(FlowError)
    {
        let rules = planned.retryRules
        guard rules.contains(where: { $0.when.condition != nil }),
            let index = RetryTracker.pendingRule(
                in: rules, status: response.status, holds: conditionHolds(for: response, in: scope)),
            let condition = rules[index].when.condition
        else { return }
        var error = FlowError(
            .pending,
            "the response (status \(response.status)) still matches the condition of retry rule \(index + 1), "
                + condition.text)
        error.status = response.status
        error.responseExcerpt = Self.excerpt(raw.body)
        throw error
    }

    /// Whether a retry rule's condition holds for `response`, read in `scope`.
    private func conditionHolds(for response: DecodedResponse?, in scope: RunScope) -> (Condition) -> Bool {
        var scope = scope
        scope.response = response
        return { condition in condition.holds(in: scope) }
    }

    /// The result of a step that fails with `error` after the attempts in `report`: the error redacted and
    /// given the step's id, the report marked failed and timed from `started`.
    func failure(
        _ error: FlowError, of planned: PlannedStep, report: StepReport, started: EngineClock.Instant,
        response: DecodedResponse? = nil
    ) -> StepResult {
        var error = redactor.redact(error)
        error.stepID = error.stepID ?? planned.id
        var report = report
        report.status = .failed
        report.error = error
        report.duration = started.duration(to: clock.now)
        return StepResult(outputs: [:], report: report, error: error, failedResponse: response)
    }

    /// The `Idempotency-Key` of one run of a step: drawn from the seed its start event carries, mixed with the
    /// item and iteration it runs for, so a replayed run sends the keys it sent before; random without a seed.
    static func idempotencyKey(seed: UInt64?, _ position: LoopPosition) -> String {
        guard let seed else { return RandomUUID.make() }
        var generator = SplitMix64(
            seed: seed ^ (UInt64(truncatingIfNeeded: (position.item ?? -1) + 1) &* 0x9E37_79B9_7F4A_7C15)
                ^ (UInt64(truncatingIfNeeded: (position.iteration ?? -1) + 1) &* 0xC2B2_AE3D_27D4_EB4F))
        return RandomUUID.make(using: &generator)
    }

    /// The first 512 bytes of a body, as text.
    static func excerpt(_ body: [UInt8]) -> String? {
        guard !body.isEmpty else { return nil }
        let text = String(decoding: body.prefix(512), as: UTF8.self)
        return body.count > 512 ? text + "…" : text
    }

    /// A step's path as the file writes it (`/items/{$vars.id}`), for reports of a request that was never built.
    static func writtenPath(of planned: PlannedStep) -> String {
        switch planned.step.request.path {
        case .literal(let value): value.stringValue ?? ""
        case .string(let template, _): template.description
        case .expression(let expression, _): "{\(expression)}"
        default: ""
        }
    }
}

extension FlowError {
    /// Creates a run-time error about a response.
    init(_ code: Code, _ message: String, status: Int, excerpt: String?) {
        self.init(code, message)
        self.status = status
        self.responseExcerpt = excerpt
    }
}

/// Finds the declared response case for a status: an exact code first, then its class (`4XX`), then `default`.
enum ResponseMatcher {
    static func match(_ status: Int, in cases: [ResponseCase]) -> ResponseCase? {
        position(of: status, in: cases).map { cases[$0] }
    }

    /// Where in `cases` the case for `status` is.
    static func position(of status: Int, in cases: [ResponseCase]) -> Int? {
        cases.firstIndex { $0.status.value == .code(status) }
            ?? cases.firstIndex { $0.status.value == .range(status / 100) }
            ?? cases.firstIndex { $0.status.value == .default }
    }
}
