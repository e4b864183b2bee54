import Testing

@testable import FlowHTTP

struct FailureMapperTests {
    @Test(arguments: [
        (Duration.milliseconds(250), "250ms"),
        (.seconds(2), "2s"),
        (.milliseconds(1500), "1.5s"),
        (.milliseconds(1005), "1.005s"),
        (.seconds(90), "90s"),
        (.seconds(120), "2m"),
        (.seconds(7200), "2h"),
    ])
    func durationsAreWrittenAsWorkflowsWriteThem(duration: Duration, text: String) {
        #expect(FailureMapper.text(for: duration) == text)
    }
}
