import Testing

@testable import flowrun

/// The summary's percentiles are nearest-rank: always one of the measured durations.
struct RunSeriesPercentileTests {
    @Test func nearestRankPicksTheValueAtTheCeilingRank() {
        let ten = [61, 40, 41, 42, 39, 58, 41, 43, 40, 44]
        #expect(RunSeries.nearestRank(50, of: ten) == 41)  // rank 5 of 39 40 40 41 41 42 43 44 58 61
        #expect(RunSeries.nearestRank(95, of: ten) == 61)  // rank ⌈9.5⌉ = 10
        #expect(RunSeries.nearestRank(90, of: ten) == 58)  // rank 9
        #expect(RunSeries.nearestRank(100, of: ten) == 61)
        #expect(RunSeries.nearestRank(0, of: ten) == 39)
        #expect(RunSeries.nearestRank(50, of: [7]) == 7)
        #expect(RunSeries.nearestRank(50, of: [3, 1]) == 1)  // rank 1 of 2
        #expect(RunSeries.nearestRank(95, of: []) == 0)
    }
}
