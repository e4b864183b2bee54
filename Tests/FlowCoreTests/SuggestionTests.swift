import Testing
@testable import FlowCore

/// "Did you mean …?": a swap of two adjacent letters is one typo, and the same name is picked whatever order the
/// candidates come in (they are often a dictionary's keys, and a lint finding that changed between two runs of the
/// same file would break every CI that compares them).
@Suite struct SuggestionTests {
    @Test(arguments: [("auht", "auth"), ("usreId", "userId"), ("BANK_UR", "BANK_URL"), ("Polcy", "policy")])
    func commonTyposFindTheName(typed: String, meant: String) {
        #expect(Suggestion.closest(to: typed, in: [meant, "unrelated"]) == meant)
    }

    @Test func equallyCloseCandidatesGiveTheSameSuggestionInEveryOrder() {
        let names = ["b", "a", "d"]
        for order in [names, names.reversed(), ["d", "a", "b"], ["a", "d", "b"]] {
            #expect(Suggestion.closest(to: "c", in: order) == "a", "\(order)")
        }
        for _ in 0..<20 {
            let keys = Dictionary(uniqueKeysWithValues: ["getAccount", "getAccounts", "setAccount"].map { ($0, 0) }).keys
            #expect(Suggestion.closest(to: "gxtAccount", in: keys) == "getAccount")
        }
    }

    @Test func theCloserCandidateWinsOverAnEarlierName() {
        #expect(Suggestion.closest(to: "tokne", in: ["token", "tokens", "to"]) == "token")
        #expect(Suggestion.closest(to: "zeta", in: ["beta", "zetas"]) == "beta")
        #expect(Suggestion.closest(to: "userID", in: ["accountId", "userId"]) == "userId")
    }

    @Test func aKnownAlternativeSuggestsTheNameFlowrunUsesWhereItIsACandidate() {
        #expect(Suggestion.closest(to: "on", in: ["run", "when", "then"]) == "when")
        #expect(Suggestion.closest(to: "On", in: ["when"]) == "when")
        #expect(Suggestion.didYouMean("on", in: ["when"]) == "; did you mean 'when'?")
        // Where `when` is not a key, `on` is an ordinary name: a close one is still suggested, a far one is not.
        #expect(Suggestion.closest(to: "on", in: ["headers", "bearer"]) == nil)
        #expect(Suggestion.closest(to: "on", in: ["one", "bearer"]) == "one")
    }

    @Test func aNameTooFarFromEveryCandidateHasNoSuggestion() {
        #expect(Suggestion.closest(to: "x", in: ["token", "auth"]) == nil)
        #expect(Suggestion.closest(to: "abcd", in: ["dcba"]) == nil)
        #expect(Suggestion.closest(to: "c", in: ["c"]) == nil)
    }
}
