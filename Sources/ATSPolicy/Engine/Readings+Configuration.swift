import TLSModel

extension AppleOSVersion {
    /// iOS 9 (macOS 10.11): the only release that may honour the legacy exception spellings (§3.2).
    var mayHonourLegacyExceptionKeys: Bool { !hasFineGrainedGlobalKeys }
}

extension ExceptionResolver {
    /// The parsing conflicts (legacy spellings on iOS 9; per-domain numbers and strings before iOS 18.4) that change
    /// which entry governs `host`, or what it says: each is looked up under both readings.
    func parsingConflicts(
        for host: String, os: AppleOSVersion, readings: Readings, address: IPAddress?
    ) -> Set<ATSConflict> {
        var found: Set<ATSConflict> = []
        var mine: ExceptionMatch??
        for conflict in [ATSConflict.perDomainNumbers, .perDomainStrings, .legacyKeys] {
            let applies = conflict == .legacyKeys ? os.mayHonourLegacyExceptionKeys : !os.readsPerDomainNumbers
            // With an index, a conflict no entry has is skipped: it cannot change the match.
            guard applies, index?.readingConflicts.contains(conflict) ?? true else { continue }
            if mine == nil {
                mine = match(
                    host, os: os, depth: readings.depth, reading: EntryReading(readings, os: os), address: address)
            }
            let other = readings.flipped(conflict)
            let theirs = match(host, os: os, depth: other.depth, reading: EntryReading(other, os: os), address: address)
            if theirs != mine! { found.insert(conflict) }
        }
        return found
    }
}
