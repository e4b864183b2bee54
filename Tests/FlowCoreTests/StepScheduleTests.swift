import Testing

@testable import FlowCore

struct StepScheduleTests {
    /// a → b → d, a → c → d, and e on its own.
    private func diamond() -> StepSchedule {
        StepSchedule([
            (id: "a", dependencies: []), (id: "b", dependencies: ["a"]), (id: "c", dependencies: ["a", "a"]),
            (id: "d", dependencies: ["b", "c"]), (id: "e", dependencies: []),
        ])
    }

    @Test func readyStepsStartInPlanOrder() {
        var schedule = diamond()
        #expect(schedule.readyCount == 2)
        #expect(schedule.startNext() == "a")
        #expect(schedule.startNext() == "e")
        #expect(schedule.startNext() == nil)
        schedule.finish("e")
        #expect(schedule.readyCount == 0)
        schedule.finish("a")
        // A dependency listed twice counts once: c is ready as soon as a is done.
        #expect(schedule.startNext() == "b")
        #expect(schedule.startNext() == "c")
        schedule.finish("c")
        #expect(schedule.readyCount == 0, "d still waits for b")
        schedule.finish("b")
        #expect(schedule.startNext() == "d")
        #expect(schedule.waitingIDs.isEmpty)
    }

    @Test func finishingAStepTwiceDoesNotReleaseItsDependentsEarly() {
        var schedule = StepSchedule([
            (id: "a", dependencies: []), (id: "b", dependencies: []), (id: "c", dependencies: ["a", "b"]),
        ])
        _ = schedule.startNext()
        schedule.finish("a")
        schedule.finish("a")
        #expect(schedule.readyCount == 1)
        #expect(schedule.startNext() == "b")
        #expect(schedule.readyCount == 0)
    }

    @Test func aDependencyOnAStepOutsideTheScheduleKeepsTheStepWaiting() {
        var schedule = StepSchedule([(id: "a", dependencies: ["refresh"]), (id: "b", dependencies: [])])
        #expect(schedule.startNext() == "b")
        schedule.finish("b")
        schedule.finish("refresh")
        #expect(schedule.startNext() == nil)
        #expect(schedule.waitingIDs == ["a"])
    }

    @Test func downstreamListsEveryStepThatDependsOnTheTarget() {
        let schedule = diamond()
        #expect(schedule.downstream(of: "b") == ["b", "d"])
        #expect(Set(schedule.downstream(of: "a")) == ["a", "b", "c", "d"])
        #expect(schedule.downstream(of: "e") == ["e"])
    }

    @Test func reopenedStepsRunAgainOnceTheirDependenciesAreDoneAgain() {
        var schedule = diamond()
        for id in ["a", "b", "c"] {
            #expect(schedule.startNext() == id)
            schedule.finish(id)
        }
        #expect(schedule.startNext() == "d")
        #expect(schedule.startNext() == "e")
        schedule.finish("e")
        // d fails and a goto sends the run back to b: b and d wait again, c stays done.
        schedule.finish("d")
        schedule.reopen(schedule.downstream(of: "b"))
        #expect(schedule.waitingIDs == ["b", "d"])
        #expect(schedule.startNext() == "b")
        #expect(schedule.readyCount == 0)
        schedule.finish("b")
        #expect(schedule.startNext() == "d")
    }

    @Test func reopenLeavesARunningStepRunning() {
        var schedule = StepSchedule([(id: "a", dependencies: []), (id: "b", dependencies: [])])
        #expect(schedule.startNext() == "a")
        #expect(schedule.startNext() == "b")
        schedule.finish("a")
        schedule.reopen(["a", "b"])
        #expect(schedule.isRunning("b"))
        #expect(schedule.waitingIDs == ["a"])
        #expect(schedule.startNext() == "a")
    }

    @Test func aLongChainStartsOneStepAtATime() {
        let count = 10_000
        var schedule = StepSchedule(
            (0..<count).map { (id: "s\($0)", dependencies: $0 == 0 ? [] : ["s\($0 - 1)"]) })
        var order: [String] = []
        while let id = schedule.startNext() {
            #expect(schedule.readyCount == 0)
            order.append(id)
            schedule.finish(id)
        }
        #expect(order.count == count)
        #expect(order.last == "s\(count - 1)")
    }

    /// Issue 9 item 19: a seed draws another order of the ready steps, the same for the same seed, and never
    /// starts a step before its dependencies.
    @Test func aSeededOrderIsAPermutationThatRespectsDependencies() {
        func order(seed: UInt64?) -> [String] {
            var schedule = StepSchedule(
                [("a", []), ("b", []), ("c", ["a"]), ("d", []), ("e", []), ("f", [])], seed: seed)
            var started: [String] = []
            while let id = schedule.startNext() {
                started.append(id)
                schedule.finish(id)
            }
            return started
        }
        #expect(order(seed: nil) == ["a", "b", "c", "d", "e", "f"])
        let shuffled = (UInt64(1)...8).map { order(seed: $0) }
        #expect(shuffled.allSatisfy { Set($0) == ["a", "b", "c", "d", "e", "f"] })
        #expect(shuffled.allSatisfy { $0.firstIndex(of: "a")! < $0.firstIndex(of: "c")! })
        #expect(shuffled.contains { $0 != order(seed: nil) })
        #expect(order(seed: 5) == order(seed: 5))
    }
}
