extension FlowError.Code {
    /// A one-sentence description of the kind of problem, or `nil` for a code flowrun does not define.
    ///
    /// Reports that describe each code once use it, such as the `shortDescription`
    /// of a SARIF rule (`flowrun lint --format sarif`). The text is the same for
    /// every error of the code; the error's ``FlowError/message`` says what went
    /// wrong in a particular case.
    ///
    /// ```swift
    /// FlowError.Code.unknownStep.summary  // "A reference names a step that the workflow does not declare."
    /// FlowError.Code("my-check").summary  // nil
    /// ```
    public var summary: String? {
        Self.summaries[name]
    }

    /// The summaries of the built-in codes, by name.
    private static let summaries: [String: String] = [
        unreadableFile.name: "The file could not be read.",
        invalidYAML.name: "The text is not well-formed YAML.",
        unsupportedYAML.name: "Well-formed YAML that flowrun does not support: a collection key, a tag outside the core schema or a second document.",
        duplicateKey.name: "A mapping declares the same key twice.",
        limitExceeded.name: "The file exceeds a loader limit: size, nesting depth or alias expansion.",
        typeMismatch.name: "A value has the wrong YAML shape or type.",
        missingKey.name: "A required key is missing.",
        unknownKey.name: "A mapping has a key that the workflow format does not define.",
        invalidValue.name: "A value has the right type but is not allowed.",
        unsupportedVersion.name: "The flowrun format version is missing or not supported.",
        invalidExpression.name: "A runtime expression is malformed.",
        unknownStep.name: "A reference names a step that the workflow does not declare.",
        unknownReference.name: "A reference names a type, server, interceptor, policy or var that is not declared.",
        bindingTypeMismatch.name: "A binding reads a value whose declared type cannot flow where it is bound.",
        maybeSkipped.name: "A binding reads an output of a step that its 'if' may skip, with no 'else' value for it.",
        dependencyCycle.name: "Steps depend on each other in a cycle.",
        subWorkflow.name: "A 'workflow:' step calls a file that cannot be read, has errors, or calls back into the caller.",
        duplicateName.name: "Two declarations share one name.",
        unused.name: "A declaration is never used.",
        unreachable.name: "A step can never run.",
        unretriedMethod.name: "A non-idempotent request is not retried although its policy retries failures.",
        retryBudget.name: "A retry rule's attempts or waits may not fit in the policy's total timeout.",
        ignoredBody.name: "A GET or HEAD request has a body, which many servers ignore or refuse.",
        missingResponse.name: "A failure handler reads the failed response, but may run for failures without one.",
        unorderedVar.name: "A step's interceptor reads a var that another step sets, and nothing orders the two.",
        unquotedScalar.name: "A plain YAML scalar in a header, query or form value is not sent as it is written.",
        pathPlaceholder.name: "A request path has an OpenAPI-style {name} placeholder, which is sent as literal text.",
        transport.name: "No response arrived: the connection failed or the body was too large.",
        attemptTimeout.name: "An attempt took longer than its policy's attempt timeout.",
        totalTimeout.name: "A step or the run took longer than its total timeout or deadline.",
        httpStatus.name: "The response status is not one the step declares as a success.",
        decode.name: "The response body cannot be read as the step declares (JSON, its Content-Type, or a parser).",
        validation.name: "A value does not match its declared type.",
        binding.name: "A binding could not be evaluated.",
        circuitOpen.name: "The circuit breaker is open, so no request was sent.",
        pending.name: "A response still matched a retry rule's condition when its attempts ran out.",
        criteria.name: "An Arazzo step's success criteria did not all hold for its response.",
        loopLimit.name: "A repeat step reached maxIterations, or a paginate step maxPages, before its loop ended.",
        cancelled.name: "The run was cancelled.",
        interceptor.name: "An interceptor failed.",
        unsupported.name: "The workflow asks for something this build cannot do.",
    ]
}
