/// The "did you mean" of a mistyped command, option or profile key: the closest known word.
package enum Suggestion {
    /// The candidate nearest `word` by edit distance (a letter added, dropped, changed or two
    /// swapped), when it is near enough to be a typo: at most two edits, and fewer than half
    /// the word's letters; or the only candidate that `word` starts.
    package static func closest(to word: String, among candidates: [String]) -> String? {
        let scored = candidates.map { ($0, distance(Array(word), Array($0))) }
        if let (best, edits) = scored.min(by: { $0.1 < $1.1 }),
            edits <= 2, edits * 2 < word.count
        {
            return best
        }
        let extended = candidates.filter { $0.hasPrefix(word) }
        return extended.count == 1 ? extended[0] : nil
    }

    /// The optimal string alignment distance between two words.
    static func distance(_ first: [Character], _ second: [Character]) -> Int {
        guard !first.isEmpty else { return second.count }
        guard !second.isEmpty else { return first.count }
        var table = [[Int]](
            repeating: [Int](repeating: 0, count: second.count + 1), count: first.count + 1)
        for row in 0...first.count { table[row][0] = row }
        for column in 0...second.count { table[0][column] = column }
        for row in 1...first.count {
            for column in 1...second.count {
                let cost = first[row - 1] == second[column - 1] ? 0 : 1
                var best = min(
                    table[row - 1][column] + 1, table[row][column - 1] + 1,
                    table[row - 1][column - 1] + cost)
                if row > 1, column > 1, first[row - 1] == second[column - 2],
                    first[row - 2] == second[column - 1]
                {
                    best = min(best, table[row - 2][column - 2] + 1)
                }
                table[row][column] = best
            }
        }
        return table[first.count][second.count]
    }

    /// `; did you mean 'X'?` for a message, or nothing.
    package static func hint(for word: String, among candidates: [String]) -> String {
        closest(to: word, among: candidates).map { "; did you mean '\($0)'?" } ?? ""
    }
}
