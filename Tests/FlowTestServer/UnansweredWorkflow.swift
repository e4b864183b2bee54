/// A workflow whose one step, on the server at `$env.API`, may take 300 ms: for a port where connecting never
/// completes (``withUnansweredPort(_:)``), the attempt's limit must end the run long before the connect timeout.
package let unansweredWorkflow = """
    flowrun: 1
    env: { API: {} }
    servers: { api: "{$env.API}" }
    policies: { quick: { timeout: { attempt: 300ms } } }
    defaults: { server: api, policy: quick }
    steps:
      - id: unanswered
        request: { method: GET, path: /never }
    """
