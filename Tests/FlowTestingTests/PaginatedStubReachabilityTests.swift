import FlowCore
import Testing

@testable import FlowTesting

/// A workflow whose `pages` step follows `Link` headers, whose `cursor` step follows a body's `next` URL, and whose
/// `numbered` step only changes a query parameter from page to page.
private let workflow = """
    flowrun: 1
    servers: { api: https://api.test }
    defaults: { server: api }
    steps:
      - id: pages
        request: { method: GET, path: /repos/o/r/issues }
        paginate: { next: link }
        outputs: { issues: $response.body }
      - id: cursor
        request: { method: POST, path: /v1/search }
        paginate: { next: $response.body#/next }
        outputs: { users: $response.body#/users }
      - id: numbered
        request: { method: PUT, path: /numbered }
        paginate: { next: page }
        outputs: { items: $response.body }
    """

/// The lint findings of a test file (the `flowrun-test`, `workflow` lines are added) against ``workflow``.
private func lint(_ yaml: String) throws -> [Diagnostic] {
    try lintTestFile(yaml, against: workflow)
}

/// A `paginate` step that follows next-page URLs may send its method to any path of its server, so the
/// unreachable-stub check accepts stubs only such a page can reach, and still reports the others.
struct PaginatedStubReachabilityTests {
    @Test func stubsANextPageCanReachAreAccepted() throws {
        let diagnostics = try lint("""
            stubs:
              - { name: page 2, match: { method: GET, path: /repositories/42/issues }, respond: {} }
              - { name: u2, match: { method: POST, path: /v1/u2 }, respond: {} }
            cases:
              - name: a
            """)
        #expect(diagnostics.isEmpty)
    }

    @Test func aMethodNoStepSendsIsStillReported() throws {
        let diagnostics = try lint("""
            stubs:
              - { name: delete, match: { method: DELETE, path: /repositories/42/issues }, respond: {} }
              - { name: numbered, match: { method: PUT, path: /numbered/2 }, respond: {} }
            cases:
              - name: a
            """)
        #expect(diagnostics.map(\.code) == [.unreachable, .unreachable])
        #expect(diagnostics.map { $0.location?.line } == [4, 5])
        #expect(diagnostics[0].message == "stub 'delete' can never answer: no step of the workflow sends "
            + "DELETE /repositories/42/issues; the steps send GET /repos/o/r/issues (and its next pages), "
            + "POST /v1/search (and its next pages), PUT /numbered")
        // Page numbers only change the query, so the pages of `numbered` are all at its own path.
        #expect(diagnostics[1].message.hasPrefix(
            "stub 'numbered' can never answer: no step of the workflow sends PUT /numbered/2;"))
    }
}
