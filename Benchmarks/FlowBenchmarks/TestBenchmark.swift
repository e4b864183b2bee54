import Foundation

/// Times `flowrun test` on 500 generated cases: 50 test files of 10 cases, each file testing its own
/// 5-step workflow with a retry policy and a refresh-on-401 interceptor.
struct TestBenchmark {
    let flowrun: String
    static let files = 50
    static let casesPerFile = 10

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("flowrun-test-bench-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        for index in 0..<Self.files {
            try Data(Self.workflow(index).utf8).write(to: folder.appendingPathComponent("wf-\(index).yaml"))
            try Data(Self.tests(index).utf8).write(to: folder.appendingPathComponent("wf-\(index).test.yaml"))
        }
        let cases = Self.files * Self.casesPerFile
        print("generated \(Self.files) workflows of 5 steps and \(cases) cases in \(folder.path)")

        // Check once that every case passes, so the timings measure passing runs.
        let check = try Timing.run(flowrun, ["test", folder.path])
        guard check.status == 0 else {
            print("the generated cases do not pass:\n\(check.output.suffix(4000))")
            exit(1)
        }
        let all = try Timing.best(of: 5) { try Timing.run(flowrun, ["test", folder.path]) }
        print(String(format: "flowrun test, %d cases in %d files: %7.1f ms wall (best of 5, process start included)",
                     cases, Self.files, all * 1000))
        print(String(format: "throughput: %.0f cases/second", Double(cases) / all))
        let one = try Timing.best(of: 10) {
            try Timing.run(flowrun, ["test", folder.appendingPathComponent("wf-0.test.yaml").path])
        }
        print(String(format: "flowrun test, 1 file of %d cases: %7.1f ms wall (best of 10)",
                     Self.casesPerFile, one * 1000))
    }

    /// A chain of five GETs, each reading the previous step's output, behind auth and a refresh interceptor.
    static func workflow(_ index: Int) -> String {
        var text = """
            flowrun: 1
            name: bench-\(index)
            inputs:
              type: object
              required: [token]
              properties: { token: { type: string, format: password } }
            env: { API_URL: {} }
            servers:
              api: { url: "{$env.API_URL}" }
            types:
              Item: { type: object, required: [id], properties: { id: { type: string }, n: { type: integer } } }
              Token: { type: object, required: [access_token], properties: { access_token: { type: string } } }
            vars:
              token: $inputs.token
            interceptors:
              auth: { bearer: $vars.token }
              refresh: { when: { status: 401 }, run: renew, then: replay }
            policies:
              standard:
                timeout: { attempt: 5s, total: 30s }
                retry: { when: { status: [502, 503] }, attempts: 3, delay: 100ms, backoff: exponential }
            defaults: { server: api, interceptors: [auth, refresh], policy: standard }
            steps:
              - id: s0
                request: { method: GET, path: /items/root }
                response: { 200: Item }
                outputs: { id: $response.body#/id }

            """
        for step in 1..<5 {
            text += """
                  - id: s\(step)
                    request: { method: GET, path: "/items/{$steps.s\(step - 1).outputs.id}/next" }
                    response: { 200: Item }
                    outputs: { id: $response.body#/id }

                """
        }
        text += """
              - id: renew
                on-demand: true
                interceptors: []
                idempotent: false
                request: { method: POST, path: /token, form: { grant_type: refresh } }
                response: { 200: Token }
                set: { token: $response.body#/access_token }
            outputs:
              last: $steps.s4.outputs.id

            """
        return text
    }

    /// Ten cases: happy paths, retries with exact timing, a refresh and replay, and an exhausted retry.
    static func tests(_ index: Int) -> String {
        var text = """
            flowrun-test: 1
            workflow: wf-\(index).yaml
            env: { API_URL: https://api.test }
            inputs: { token: t-1 }
            stubs:
              - { match: { method: GET, path: /items/root }, respond: { body: { id: i0 } } }
              - { match: { method: GET, path: "/items/{id}/next" }, respond: { body: { id: i1, n: 1 } } }
              - { match: { method: POST, path: /token }, respond: { body: { access_token: fresh } } }
            cases:

            """
        for number in 0..<casesPerFile {
            switch number % 4 {
            case 0:
                text += """
                      - name: happy path \(number)
                        expect:
                          outputs-exact: { last: i1 }
                          calls: [GET /items/root, GET /items/i0/next, GET /items/i1/next, GET /items/i1/next, GET /items/i1/next]
                          attempts: { s0: 1, s4: 1, renew: 0 }
                          elapsed: 0s

                    """
            case 1:
                text += """
                      - name: retries \(number)
                        stubs:
                          - match: { method: GET, path: "/items/{id}/next" }
                            respond: [{ status: 503 }, { status: 502 }, { body: { id: i2 } }]
                        expect: { outputs: { last: i2 }, attempts: { s1: 3, s2: 1 }, elapsed: 300ms }

                    """
            case 2:
                text += """
                      - name: refreshes \(number)
                        stubs:
                          - { match: { path: /items/root, headers: { Authorization: Bearer t-1 } }, respond: { status: 401 } }
                        expect:
                          outputs: { last: i1 }
                          calls:
                            - { method: GET, path: /items/root, headers: { Authorization: Bearer t-1 } }
                            - POST /token
                            - { method: GET, path: /items/root, headers: { Authorization: Bearer fresh } }
                            - GET /items/i0/next
                            - GET /items/i1/next
                            - GET /items/i1/next
                            - GET /items/i1/next
                          attempts: { s0: 1, renew: 1 }

                    """
            default:
                text += """
                      - name: gives up \(number)
                        stubs:
                          - { match: { method: GET, path: "/items/{id}/next" }, respond: { status: 503 } }
                        expect:
                          outcome: { failure: { kind: http, step: s1, status: 503 } }
                          attempts: { s1: 3 }
                          steps: { s2: skipped }
                          elapsed: 300ms

                    """
            }
        }
        return text
    }
}
