/// Finds the closest known word to a misspelt one, for "did you mean" hints.
package enum Suggestion {
    /// The candidate closest to `word` by edit distance, when it is close enough to be a typo:
    /// at most 2 edits, and fewer than half the length of the longer of the two (so `zo` finds
    /// `zoo`, while `me` finds nothing in `zoo`).
    package static func closest(to word: String, among candidates: some Sequence<String>) -> String? {
        let target = Array(word.lowercased())
        var best: (word: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(target, Array(candidate.lowercased()))
            if distance == 0 { return candidate }
            if best == nil || distance < best!.distance { best = (candidate, distance) }
        }
        guard let best, best.distance <= 2, best.distance * 2 < max(target.count, best.word.count, 2) else { return nil }
        return best.word
    }

    /// `"; did you mean 'x'?"` or the empty string.
    package static func didYouMean(_ word: String, among candidates: some Sequence<String>) -> String {
        guard let match = closest(to: word, among: candidates) else { return "" }
        return "; did you mean '\(match)'?"
    }

    /// Damerau–Levenshtein distance (optimal string alignment), so a swap of two neighbours
    /// (`pagniate` → `paginate`) counts as one edit.
    package static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previousPrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previousPrevious[j - 2] + 1)
                }
            }
            (previousPrevious, previous, current) = (previous, current, previousPrevious)
        }
        return previous[b.count]
    }
}
