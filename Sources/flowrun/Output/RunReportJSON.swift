import FlowCore

/// The JSON form of a ``RunReport``, which `flowrun run --format json` prints.
///
/// Durations are in milliseconds. Secrets are already redacted by the engine.
enum RunReportJSON {
    static func encode(_ report: RunReport) -> JSONValue {
        var document: [String: JSONValue] = [
            "runId": .string(report.runID),
            "workflow": .string(report.workflow),
            "status": .string(report.succeeded ? "succeeded" : "failed"),
            "outputs": .object(report.outputs),
            "durationMs": .int(report.duration.milliseconds),
            "steps": .array(report.steps.map(encode)),
        ]
        if let error = report.error { document["error"] = encode(error) }
        return .object(document)
    }

    static func encode(_ step: StepReport) -> JSONValue {
        var entry: [String: JSONValue] = [
            "id": .string(step.id),
            "status": .string(step.status.rawValue),
            "startedAfterMs": .int(step.startedAfter.milliseconds),
            "durationMs": .int(step.duration.milliseconds),
            "outputs": .object(step.outputs),
            "attempts": .array(step.attempts.map { attempt in
                var entry: [String: JSONValue] = [
                    "number": .int(attempt.number),
                    "method": .string(attempt.method),
                    "url": .string(attempt.url),
                    "startedAfterMs": .int(attempt.startedAfter.milliseconds),
                    "durationMs": .int(attempt.duration.milliseconds),
                ]
                if let status = attempt.status { entry["status"] = .int(status) }
                if let item = attempt.item { entry["item"] = .int(item) }
                if let iteration = attempt.iteration { entry["iteration"] = .int(iteration) }
                if !attempt.redirects.isEmpty {
                    entry["redirects"] = .array(
                        attempt.redirects.map { ["status": .int($0.status), "url": .string($0.url)] })
                }
                if let delay = attempt.retryDelay { entry["retryDelayMs"] = .int(delay.milliseconds) }
                if let reason = attempt.retryRefused { entry["retryRefused"] = .string(reason) }
                if !attempt.warnings.isEmpty { entry["warnings"] = .array(attempt.warnings.map { .string($0) }) }
                if let refresh = attempt.refresh {
                    entry["refresh"] = [
                        "status": .int(refresh.status), "step": .string(refresh.refreshStep),
                        "ranRefresh": .bool(refresh.ranRefresh),
                    ]
                }
                if let error = attempt.error { entry["error"] = encode(error) }
                return .object(entry)
            }),
        ]
        if let error = step.error { entry["error"] = encode(error) }
        if let requester = step.refreshFor { entry["refreshFor"] = .string(requester) }
        if let reason = step.skipReason { entry["skipReason"] = .string(reason) }
        if let count = step.itemCount { entry["itemCount"] = .int(count) }
        if let count = step.iterationCount { entry["iterationCount"] = .int(count) }
        if let loop = step.loop { entry["loop"] = .string(loop.rawValue) }
        if let workflow = step.workflow {
            entry["workflow"] = .string(workflow)
            entry["subSteps"] = .array(step.subSteps.map(encode))
        }
        if let chose = step.chose { entry["chose"] = .string(chose) }
        if let key = step.matchedCase { entry["matchedCase"] = .string(key) }
        return .object(entry)
    }

    static func encode(_ error: FlowError) -> JSONValue {
        var entry: [String: JSONValue] = ["code": .string(error.code.name), "message": .string(error.message)]
        if let step = error.stepID { entry["step"] = .string(step) }
        if let attempt = error.attempt { entry["attempt"] = .int(attempt) }
        if let request = error.request { entry["request"] = .string(request) }
        if let status = error.status { entry["status"] = .int(status) }
        if let excerpt = error.responseExcerpt { entry["responseExcerpt"] = .string(excerpt) }
        if let location = error.location {
            entry["location"] = ["path": .string(location.path), "line": .int(location.line), "column": .int(location.column)]
        }
        return .object(entry)
    }
}
