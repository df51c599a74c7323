import TLSModel

/// The key names the key name rules read, found once (docs/apple-rules.md §3.1, §3.2, §3.4: "unknown or misspelled
/// keys are ignored"): the Info.plist root, and every dictionary of the ATS dictionary whose keys Apple looks up.
struct KeyNameScan {
    /// One dictionary whose keys are read.
    struct Scanned {
        /// Its keys, sorted.
        let keys: [String]
        /// The level its keys belong to; nil for a domain container, whose keys are host names (only their case is
        /// read).
        let level: ATSKey.Level?
        /// Where it is, relative to the ATS dictionary.
        let path: [String]
    }

    /// The dictionaries, global first, then the domain containers, the exception entries and the pinned entries
    /// with their identities.
    let dictionaries: [Scanned]
    /// The Info.plist root keys read, sorted, up to and with the first misspelling of `NSAppTransportSecurity`
    /// (reading stops there); empty for a document that is not an Info.plist.
    let rootKeys: [String]
    /// The misspelling of `NSAppTransportSecurity` reading stopped at, nil when it read every root key.
    let rootMisspelling: String?

    /// Finds the key names of a document.
    init(_ c: LintContext) {
        var rootKeys: [String] = []
        var misspelling: String?
        if c.document.kind == .infoPlist {
            let root = c.document.rootDictionary
            for key in root.keys.sorted() {
                rootKeys.append(key)
                if ATSKey.named(key) == nil, root[ATSKey.appTransportSecurity] == nil,
                    key != ATSKey.appTransportSecurity,
                    KeySuggestion.suggest(for: key, among: [ATSKey.appTransportSecurity]) != nil
                {
                    misspelling = key
                    break
                }
            }
        }
        self.rootKeys = rootKeys
        rootMisspelling = misspelling
        var dictionaries: [Scanned] = []
        if let ats = c.ats {
            dictionaries.append(Scanned(keys: ats.keys.sorted(), level: .global, path: []))
            for container in [ATSKey.exceptionDomains, .pinnedDomains] {
                if let value = ats[container.name], let domains = PlistNode.dictionary(value) {
                    dictionaries.append(Scanned(keys: domains.keys.sorted(), level: nil, path: [container.name]))
                }
            }
            for (name, value) in c.exceptionDomains {
                if let entry = PlistNode.dictionary(value) {
                    dictionaries.append(
                        Scanned(
                            keys: entry.keys.sorted(), level: .exceptionDomain,
                            path: [ATSKey.exceptionDomains.name, name]))
                }
            }
            for (name, value) in c.pinnedDomains {
                guard let entry = PlistNode.dictionary(value) else { continue }
                let entryPath = [ATSKey.pinnedDomains.name, name]
                dictionaries.append(Scanned(keys: entry.keys.sorted(), level: .pinnedDomain, path: entryPath))
                for arrayKey in [ATSKey.pinnedCAIdentities, ATSKey.pinnedLeafIdentities] {
                    guard let identities = entry[arrayKey.name] as? [Any] else { continue }
                    for (i, identity) in identities.enumerated() {
                        if let dict = PlistNode.dictionary(identity) {
                            dictionaries.append(
                                Scanned(
                                    keys: dict.keys.sorted(), level: .pinnedIdentity,
                                    path: entryPath + [arrayKey.name, String(i)]))
                        }
                    }
                }
            }
        }
        self.dictionaries = dictionaries
    }

    /// Where Apple reads keys of a level, for messages.
    static func describe(_ level: ATSKey.Level) -> String {
        switch level {
        case .global: return "directly in NSAppTransportSecurity"
        case .exceptionDomain: return "in an NSExceptionDomains entry"
        case .pinnedDomain: return "in an NSPinnedDomains entry"
        case .pinnedIdentity: return "in a pinned identity dictionary"
        }
    }

    /// The suggestion for an unknown key of a level: a key of that level first, else any ATS key.
    static func suggestion(for key: String, level: ATSKey.Level) -> (name: String, key: ATSKey)? {
        let levelKeys = ATSKey.all.filter { $0.levels.contains(level) }.map(\.name)
        let suggestion = KeySuggestion.suggest(for: key, among: levelKeys) ?? KeySuggestion.suggest(for: key)
        guard let suggestion, let meant = ATSKey.named(suggestion) else { return nil }
        return (suggestion, meant)
    }
}
