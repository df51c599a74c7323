import TLSModel

extension AppleOSVersion {
    /// iOS 9 (macOS 10.11): the only release that may honour the legacy exception spellings (§3.2).
    var mayHonourLegacyExceptionKeys: Bool { !hasFineGrainedGlobalKeys }
}

extension ATSConfiguration {
    /// The configuration as `readings` read it on `os`: per-domain numbers ignored (before the CIDR-era
    /// source, §3.4), per-domain strings read with `boolValue` (the same releases, §3.4) and the iOS 9-era
    /// spellings honoured (iOS 9, §3.2) when those readings are chosen.
    func read(with readings: Readings, os: AppleOSVersion) -> ATSConfiguration {
        let ignoreNumbers = readings.perDomainNumbersIgnored && !os.readsPerDomainNumbers
        let honourLegacy = readings.legacyKeysHonoured && os.mayHonourLegacyExceptionKeys
        let honourStrings = readings.perDomainStringsHonoured && !os.readsPerDomainNumbers
        guard ignoreNumbers || honourLegacy || honourStrings else { return self }
        var c = self
        c.exceptionDomains = exceptionDomains.mapValues { entry in
            var e = entry
            if ignoreNumbers { e = e.ignoringNumericBooleans() }
            if honourLegacy { e = e.honouringLegacyKeys() }
            if honourStrings { e = e.honouringStringBooleans() }
            return e
        }
        return c
    }

    /// The conflicts of §3.2 and §3.4 that change which entry governs `host`, or what it says.
    func parsingConflicts(for host: String, os: AppleOSVersion, readings: Readings) -> Set<ATSConflict> {
        var found: Set<ATSConflict> = []
        let mine = read(with: readings, os: os).exception(for: host, os: os, depth: readings.depth)
        for conflict in [ATSConflict.perDomainNumbers, .perDomainStrings, .legacyKeys] {
            let applies = conflict == .legacyKeys ? os.mayHonourLegacyExceptionKeys : !os.readsPerDomainNumbers
            guard applies else { continue }
            let other = readings.flipped(conflict)
            if read(with: other, os: os).exception(for: host, os: os, depth: other.depth) != mine {
                found.insert(conflict)
            }
        }
        return found
    }
}
