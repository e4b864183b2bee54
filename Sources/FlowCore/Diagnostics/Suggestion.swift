/// "Did you mean …?" suggestions for misspelled names.
package enum Suggestion {
    /// Names users write for a name flowrun spells otherwise, too far apart for edit distance to find: each is
    /// suggested wherever the name it stands for is a candidate. `on` is the trigger key of GitHub Actions and
    /// other tools, and what a user guesses for the refresh interceptor's `when` (which flowrun chose because a
    /// YAML 1.1 parser reads an `on` key as `true`).
    static let knownAlternatives: [String: [String]] = [
        "on": ["when"],
    ]

    /// The candidate closest to `name` by edit distance, if it is close enough to be a plausible typo, or the
    /// name that `name` is a known alternative for (``knownAlternatives``: `on` suggests `when`).
    ///
    /// A candidate qualifies when the case-insensitive edit distance (``editDistance(_:_:)``) is at
    /// most a third of the longer name's length (and at least 1), so `userID`
    /// suggests `userId` but `x` does not suggest `token`. Of equally close candidates the first in code-point order
    /// is chosen, so the suggestion does not depend on the order the candidates come in (often a dictionary's keys,
    /// whose order changes from one process to the next).
    /// - Parameters:
    ///   - name: The name the user wrote.
    ///   - candidates: The names that exist.
    /// - Returns: The best candidate, or `nil`.
    package static func closest<S: Sequence<String>>(to name: String, in candidates: S) -> String? {
        if let meant = knownAlternatives[name.lowercased()] {
            let candidates = Array(candidates)
            return meant.first(where: candidates.contains) ?? closestByEditDistance(to: name, in: candidates)
        }
        return closestByEditDistance(to: name, in: candidates)
    }

    /// The candidate closest to `name` by edit distance, if it is close enough to be a plausible typo.
    private static func closestByEditDistance<S: Sequence<String>>(to name: String, in candidates: S) -> String? {
        let target = Array(name.lowercased().unicodeScalars)
        var best: (name: String, distance: Int)?
        for candidate in candidates where candidate != name {
            let other = Array(candidate.lowercased().unicodeScalars)
            let limit = max(1, max(target.count, other.count) / 3)
            guard abs(target.count - other.count) <= limit else { continue }
            let distance = editDistance(target, other)
            guard distance <= limit else { continue }
            if let best, distance > best.distance || (distance == best.distance && candidate >= best.name) { continue }
            best = (candidate, distance)
        }
        return best?.name
    }

    /// `" (did you mean 'x'?)"` when a close candidate exists, else the empty string.
    /// - Parameters:
    ///   - name: The name the user wrote.
    ///   - candidates: The names that exist.
    /// - Returns: The suffix to append to a message.
    package static func didYouMean<S: Sequence<String>>(_ name: String, in candidates: S) -> String {
        closest(to: name, in: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }

    /// The edit distance between two scalar sequences, counting an insertion, a deletion, a substitution and
    /// a swap of two adjacent scalars (`auht` for `auth`, the commonest typo) as one edit each.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(previous[j] + 1, current[j - 1] + 1, substitution)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
            }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
