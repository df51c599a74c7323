import Synchronization
import TLSModel

/// The work of resolving host policies, counted: resolutions, and the exception entries examined (a look-up of a key,
/// an index built or a configuration read whole counts each entry it touches). What the `--explain` regression test
/// bounds in place of a time: linear work stays linear whatever the machine.
final class ResolutionWork: Sendable {
    private let resolutionCount = Atomic<Int>(0)
    private let entryCount = Atomic<Int>(0)

    /// Host policies resolved.
    var resolutions: Int { resolutionCount.load(ordering: .relaxed) }
    /// Exception entries examined.
    var entries: Int { entryCount.load(ordering: .relaxed) }

    func resolved() { resolutionCount.add(1, ordering: .relaxed) }
    func examined(_ count: Int = 1) { entryCount.add(count, ordering: .relaxed) }
}

/// The IP-address and CIDR keys of `NSExceptionDomains`, indexed once per configuration: finding the entry of an IP
/// literal then costs one look-up per prefix length in use instead of a walk over every key (issue 32: `--explain`
/// on 100,000 domains resolved each IP pattern by walking them all). Name keys need no index: they are found by
/// dictionary look-up, label by label.
struct ExceptionIndex: Sendable {
    /// IP-literal keys by address; where two keys spell one address, the first in sorted order.
    let addresses: [IPAddress: String]
    /// CIDR keys by address length (4 or 16 bytes), then prefix length (longest first), then masked network; where
    /// two keys mask to one network, the first in sorted order.
    let ranges: [Int: [(prefix: Int, networks: [[UInt8]: String])]]
    /// The parsing conflicts some entry can be read two ways under (``ATSConflict``): per-domain numbers, strings,
    /// iOS 9-era spellings. A conflict no entry has cannot change which entry governs a host, or what it says.
    let readingConflicts: Set<ATSConflict>
    /// Counts the work of the resolutions that use this index (tests); nil: not counted.
    let work: ResolutionWork?

    /// Indexes the IP and CIDR keys of `domains` (one pass).
    /// - Parameter work: counts the work of the resolutions that use the index.
    init(_ domains: [String: ExceptionDomain], work: ResolutionWork? = nil) {
        self.work = work
        work?.examined(domains.count)
        var addresses: [IPAddress: String] = [:]
        var byLength: [Int: [Int: [[UInt8]: String]]] = [:]
        var conflicts: Set<ATSConflict> = []
        for entry in domains.values {
            if !entry.numericBooleanKeys.isEmpty { conflicts.insert(.perDomainNumbers) }
            if !entry.stringBooleanValues.isEmpty { conflicts.insert(.perDomainStrings) }
            if entry.legacyValues != nil { conflicts.insert(.legacyKeys) }
        }
        readingConflicts = conflicts
        for key in domains.keys {
            if key.contains("/") {
                guard let range = CIDRRange(key) else { continue }
                let network = Self.masked(range.network.bytes, prefix: range.prefixLength)
                let existing = byLength[network.count, default: [:]][range.prefixLength, default: [:]][network]
                if existing.map({ key < $0 }) ?? true {
                    byLength[network.count, default: [:]][range.prefixLength, default: [:]][network] = key
                }
            } else if let address = IPAddress(literal: key) {
                if addresses[address].map({ key < $0 }) ?? true { addresses[address] = key }
            }
        }
        self.addresses = addresses
        ranges = byLength.mapValues { prefixes in
            prefixes.sorted { $0.key > $1.key }.map { (prefix: $0.key, networks: $0.value) }
        }
    }

    /// The address's bytes with every bit past `prefix` cleared.
    static func masked(_ bytes: [UInt8], prefix: Int) -> [UInt8] {
        bytes.enumerated().map { index, byte in
            let bits = prefix - index * 8
            if bits >= 8 { return byte }
            if bits <= 0 { return 0 }
            return byte & ~(0xFF >> UInt8(bits))
        }
    }

    /// The keys that could govern `address`, best first: the exact IP key, then CIDR keys from the longest prefix.
    func candidates(for address: IPAddress) -> [String] {
        var out: [String] = []
        if let exact = addresses[address] { out.append(exact) }
        for level in ranges[address.bytes.count] ?? [] {
            if let key = level.networks[Self.masked(address.bytes, prefix: level.prefix)] { out.append(key) }
        }
        return out
    }
}

/// How one reading of the parsing conflicts (``ATSConflict``) reads an entry: per-domain numbers ignored, strings read
/// with `boolValue`, iOS 9-era spellings honoured. Applied to the entries a look-up examines, never to the whole
/// configuration, so a look-up costs the same whatever the number of entries.
struct EntryReading: Equatable, Sendable {
    var ignoreNumbers = false
    var honourLegacy = false
    var honourStrings = false

    /// Entries as written (the current Security source's reading).
    init() {}

    /// The reading `readings` give on `os`.
    init(_ readings: Readings, os: AppleOSVersion) {
        ignoreNumbers = readings.perDomainNumbersIgnored && !os.readsPerDomainNumbers
        honourLegacy = readings.legacyKeysHonoured && os.mayHonourLegacyExceptionKeys
        honourStrings = readings.perDomainStringsHonoured && !os.readsPerDomainNumbers
    }

    /// The entry as Apple reads it under this reading.
    func apply(_ entry: ExceptionDomain) -> ExceptionDomain {
        guard ignoreNumbers || honourLegacy || honourStrings else { return entry }
        var e = entry
        if ignoreNumbers { e = e.ignoringNumericBooleans() }
        if honourLegacy { e = e.honouringLegacyKeys() }
        if honourStrings { e = e.honouringStringBooleans() }
        return e
    }
}

/// One entry replaced or removed for a look-up: how `--explain` asks "what if this key were not there" without
/// copying a configuration of 100,000 entries per question.
struct ExceptionOverlay: Sendable {
    var key: String
    /// nil: the entry is removed.
    var entry: ExceptionDomain?
}

/// Finds the entry that governs a host (Apple's `NSExceptionDomains` documentation; `SecProtocolConfiguration.m`) from a configuration's entries, its IP index, a reading
/// and an overlay.
struct ExceptionResolver {
    let domains: [String: ExceptionDomain]
    let index: ExceptionIndex?
    var overlay: ExceptionOverlay?

    /// The entry written under `key`, as the overlay leaves it.
    func entry(_ key: String) -> ExceptionDomain? {
        index?.work?.examined()
        if let overlay, overlay.key == key { return overlay.entry }
        return domains[key]
    }

    /// The governing entry for `host`: exact keys (case- and trailing-dot sensitive) beat ancestors; ancestors count
    /// only with `NSIncludesSubdomains = YES` (as `reading` reads it), as deep as `depth` allows; IP literals match IP
    /// keys exactly, then the longest CIDR prefix, and only from iOS 17 on; the built-in Apple entries apply where
    /// the app has no entry of its own.
    func match(
        _ host: String, os: AppleOSVersion, depth: SubdomainDepth, reading: EntryReading, address: IPAddress?
    ) -> ExceptionMatch? {
        if let ip = address {
            guard os.ipLiteralsRequireATS else { return nil }  // IP keys were not honoured before iOS 17
            // An overlay only edits or removes a key the index knows (`--explain`'s "what if"), never adds one.
            for key in (index ?? ExceptionIndex(domains)).candidates(for: ip) {
                guard let entry = entry(key) else { continue }
                return ExceptionMatch(key: key, entry: reading.apply(entry), builtIn: false, depth: 0)
            }
            return nil
        }
        if let exact = entry(host) {
            return ExceptionMatch(key: host, entry: reading.apply(exact), builtIn: false, depth: 0)
        }
        var rest = Substring(host)
        var level = 0
        while let dot = rest.firstIndex(of: ".") {
            rest = rest[rest.index(after: dot)...]
            level += 1
            let ancestor = String(rest)
            if let written = entry(ancestor) {
                let read = reading.apply(written)
                if read.includesSubdomains {
                    if depth == .oneLevel && level > 1 { break }
                    return ExceptionMatch(key: ancestor, entry: read, builtIn: false, depth: level)
                }
                if depth == .oneLevel { break }
            }
        }
        return builtIn(host)
    }

    /// The built-in Apple entry for `host`, unless the app has an entry with the same key. Built-ins are a
    /// Security-source construct, so they use its any-depth walk (case-insensitive, as the host is lowered).
    func builtIn(_ host: String) -> ExceptionMatch? {
        let lowered = host.lowercased()
        var rest = Substring(lowered)
        var level = 0
        while true {
            let candidate = String(rest)
            if let entry = BuiltInExceptions.entries[candidate], self.entry(candidate) == nil {
                return ExceptionMatch(key: candidate, entry: entry, builtIn: true, depth: level)
            }
            guard let dot = rest.firstIndex(of: ".") else { return nil }
            rest = rest[rest.index(after: dot)...]
            level += 1
        }
    }
}
