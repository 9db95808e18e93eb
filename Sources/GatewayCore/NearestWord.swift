/// The word a misspelling most likely meant: the nearest by edit distance (insertions, deletions,
/// substitutions, and swaps of neighbours), if it is near enough to be a typo.
enum NearestWord {
    /// The nearest of `candidates` to `word`, when at most a third of its letters (and at least one) differ.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let limit = max(1, word.count / 3)
        let scored = candidates.filter { $0 != word }.map { ($0, distance(word, $0)) }.filter { $0.1 <= limit }
        return scored.min { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }?.0
    }

    /// The optimal string alignment distance between `a` and `b`, case-insensitively.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a.lowercased()), b = Array(b.lowercased())
        guard !a.isEmpty else { return b.count }
        guard !b.isEmpty else { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
