/// "Did you mean" for ATS key names: the known-mistakes table of ``ATSKey/knownMistakes`` first,
/// then a case-insensitive match, then the closest key by edit distance.
package enum KeySuggestion {
    /// The key a misspelling most likely meant, or nil when nothing is close.
    /// - Parameters:
    ///   - name: The key as written.
    ///   - candidates: The keys to choose from (defaults to every key atscheck knows).
    static func suggest(for name: String, among candidates: [String] = ATSKey.all.map(\.name)) -> String? {
        if let meant = ATSKey.knownMistakes[name] { return meant }
        let lower = name.lowercased()
        if let sameLetters = candidates.first(where: { $0.lowercased() == lower }) { return sameLetters }
        var best: (String, Int)?
        for candidate in candidates {
            let d = editDistance(lower, candidate.lowercased())
            if best == nil || d < best!.1 { best = (candidate, d) }
        }
        guard let (candidate, distance) = best else { return nil }
        // Allow about one edit per six characters, at least two, so `NSIncludeSubdomain` matches
        // but `NSFooBar` does not match anything.
        let allowed = max(2, min(name.count, candidate.count) / 6)
        return distance <= allowed ? candidate : nil
    }

    /// Whether a root-level key looks like an ATS key (so the root is a bare ATS dictionary).
    static func isATSLike(_ name: String) -> Bool {
        ATSKey.named(name) != nil || ATSKey.knownMistakes[name] != nil || suggest(for: name) != nil
    }

    /// Levenshtein distance over characters (also the endpoint-list and baseline "did you mean").
    package static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }
}
