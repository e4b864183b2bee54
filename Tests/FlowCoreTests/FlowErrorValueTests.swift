import Testing
@testable import FlowCore

/// `FlowError` keeps its fields in a shared box but behaves as a value: changing a copy leaves the original
/// as it was, field by field.
struct FlowErrorValueTests {
    @Test func changingACopyLeavesTheOriginalAlone() {
        var original = FlowError(.httpStatus, "status 503", at: SourceLocation(path: "a.yaml", line: 3, column: 5))
        original.stepID = "user"
        original.status = 503
        var copy = original
        copy.message += " (again)"
        copy.stepID = "account"
        copy.attempt = 2
        copy.code = .transport
        copy.status = nil
        copy.request = "GET https://x.test"
        copy.responseExcerpt = "busy"
        copy.location = nil
        #expect(original.message == "status 503")
        #expect(original.stepID == "user")
        #expect(original.attempt == nil)
        #expect(original.code == .httpStatus)
        #expect(original.status == 503)
        #expect(original.request == nil && original.responseExcerpt == nil)
        #expect(original.location?.line == 3)
        #expect(copy.description == "error: step 'account', attempt 2: status 503 (again)")
    }

    @Test func anErrorInAnArrayIsChangedInPlaceWithoutTouchingOthers() {
        let shared = FlowError(.binding, "reads nothing")
        var errors = [shared, shared]
        errors[1].message = "changed"
        #expect(errors[0].message == "reads nothing")
        #expect(shared.message == "reads nothing")
        #expect(errors[1].message == "changed")
    }
}
