import Testing

@testable import FlowCore

/// `unwrap` and `wrap` take a JSON pointer to the envelope member: a name written without its `/` gets a
/// finding that shows the pointer to write.
struct EnvelopePointerFindingsTests {
    private func workflow(_ interceptor: String) -> String {
        apiServerByDefault + """
            interceptors:
              envelope: \(interceptor)
            steps:
              - { id: a, interceptors: [envelope], request: { method: POST, path: /a, body: { x: 1 } } }
            """
    }

    @Test(arguments: [
        ("{ unwrap: data }", "'data' in 'unwrap' is not a JSON pointer; a pointer starts with '/': write '/data'"),
        ("{ wrap: { at: data } }", "'data' in 'at' is not a JSON pointer; a pointer starts with '/': write '/data'"),
        ("{ unwrap: '#data' }", "'#data' in 'unwrap' is not a JSON pointer; a pointer starts with '/': write '/data'"),
    ])
    func aMemberNameWithoutItsSlashIsRefusedWithThePointerToWrite(interceptor: String, message: String) {
        let found = diagnostics(workflow(interceptor))
        #expect(found.count == 1, "\(found)")
        #expect(found.first?.code == .invalidValue)
        #expect(found.first?.message == message)
        #expect(found.first?.location?.line == 5)
    }

    @Test(arguments: ["{ unwrap: /data }", "{ unwrap: '#/data' }", "{ wrap: { at: /data } }"])
    func aPointerIsAccepted(interceptor: String) {
        #expect(diagnostics(workflow(interceptor)).isEmpty)
    }
}
