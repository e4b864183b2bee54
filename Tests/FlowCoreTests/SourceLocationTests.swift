import Testing
@testable import FlowCore

struct SourceLocationTests {
    @Test func describesItselfCompilerStyle() {
        let location = SourceLocation(path: "w.yaml", line: 3, column: 7)
        #expect(location.description == "w.yaml:3:7")
        #expect(location.advanced(by: 4).column == 11)
    }

    @Test func flowErrorDescriptionNamesTheLocation() {
        let error = FlowError(.unknownStep, "no step 'x'", at: SourceLocation(path: "a.yaml", line: 2, column: 5))
        #expect(error.description == "a.yaml:2:5: error: no step 'x'")
    }
}
