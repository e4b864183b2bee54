import Foundation

extension Array where Element: Sendable {
    /// `transform` applied to every element, concurrently but at most `maxConcurrency` tasks at a time.
    ///
    /// `flowrun lint` and `flowrun test` read and check their files this way, and FlowTesting's
    /// `WorkflowTestRunner` runs test cases this way: the results come back in the order of the elements, so
    /// output does not depend on which finished first.
    /// - Parameters:
    ///   - maxConcurrency: The most tasks at once; one per core by default.
    ///   - transform: The work for one element.
    /// - Returns: The results, in the order of the elements.
    package func concurrentMap<Result: Sendable>(
        maxConcurrency: Int = ProcessInfo.processInfo.activeProcessorCount,
        _ transform: @escaping @Sendable (Element) async -> Result
    ) async -> [Result] {
        let width = Swift.max(1, maxConcurrency)
        var results = [Result?](repeating: nil, count: count)
        await withTaskGroup(of: (Int, Result).self) { group in
            var next = 0
            func addTask() {
                let index = next
                let element = self[index]
                next += 1
                group.addTask { (index, await transform(element)) }
            }
            while next < Swift.min(width, count) { addTask() }
            for await (index, result) in group {
                results[index] = result
                if next < count { addTask() }
            }
        }
        return results.map { $0! }
    }
}
