/// Workflow texts the report-format tests share.
enum WorkflowTexts {
    /// A workflow without findings; its request line is line 6.
    static let clean = """
        flowrun: 1
        servers: { api: "https://api.example.com" }
        defaults: { server: api }
        steps:
          - id: ping
            request: { method: GET, path: /ping }
        """
}
