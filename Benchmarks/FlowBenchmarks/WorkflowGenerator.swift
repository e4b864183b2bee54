import FlowCore

/// Generates realistic workflow files for benchmarks: 5–10 steps, ~60 lines, types, policies and interceptors.
struct WorkflowGenerator {
    /// A deterministic generator, so every run lints the same files.
    var random: SplitMix64

    init(seed: UInt64) { random = SplitMix64(seed: seed) }

    /// The workflow numbered `index`: a chain of `steps` calls, or of 5 to 10 when not given.
    mutating func workflow(index: Int, steps: Int? = nil) -> String {
        let stepCount = steps ?? Int.random(in: 5...10, using: &random)
        var text = """
            # yaml-language-server: $schema=../schemas/workflow.schema.json
            flowrun: 1
            name: generated-\(index)
            summary: A generated chain of \(stepCount) calls.
            inputs:
              type: object
              required: [token]
              properties:
                token: { type: string, format: password }
            servers:
              api: { url: "https://api\(index).example.com/v1" }
            types:
              Item:
                type: object
                required: [id]
                properties: { id: { type: string }, count: { type: integer }, tags: { type: array, items: { type: string } } }
              ApiError:
                type: object
                properties: { code: { type: string }, message: { type: string } }
            vars:
              token: $inputs.token
            interceptors:
              auth: { bearer: $vars.token }
              client: { headers: { X-Client: flowrun-bench } }
            policies:
              standard:
                timeout: { attempt: 5s, total: 30s }
                retry:
                  - when: { status: [429, 503], errors: [transport, timeout] }
                    attempts: 3
                    delay: 200ms
                    backoff: exponential
            defaults:
              server: api
              interceptors: [client, auth]
              policy: standard
            steps:

            """
        for step in 0..<stepCount {
            let path = step == 0 ? "/items" : "\"/items/{$steps.s\(step - 1).outputs.id}\""
            text += """
                  - id: s\(step)
                    request: { method: GET, path: \(path), query: { page: 1 } }
                    response: { 200: Item, default: ApiError }
                    outputs: { id: $response.body#/id }

                """
        }
        text += """
            outputs:
              last: $steps.s\(stepCount - 1).outputs.id

            """
        return text
    }
}
