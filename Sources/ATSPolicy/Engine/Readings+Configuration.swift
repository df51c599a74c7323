import TLSModel

extension AppleOSVersion {
    /// iOS 9 (macOS 10.11): the only release that may honour the legacy exception spellings (§3.2).
    var mayHonourLegacyExceptionKeys: Bool { !hasFineGrainedGlobalKeys }
}

extension ATSConfiguration {
    /// The configuration as `readings` read it on `os`: per-domain numbers ignored (before the CIDR-era
    /// source, §3.4), per-domain strings read with `boolValue` (the same releases, §3.4) and the iOS 9-era
    /// spellings honoured (iOS 9, §3.2) when those readings are chosen. Copies every entry: the engine reads the
    /// entries a look-up examines instead (``EntryReading``).
    func read(with readings: Readings, os: AppleOSVersion) -> ATSConfiguration {
        let reading = EntryReading(readings, os: os)
        guard reading != EntryReading() else { return self }
        var c = self
        c.exceptionDomains = exceptionDomains.mapValues(reading.apply)
        return c
    }
}

extension ExceptionResolver {
    /// The conflicts of §3.2 and §3.4 that change which entry governs `host`, or what it says.
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
