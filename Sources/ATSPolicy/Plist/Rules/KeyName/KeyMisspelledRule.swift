import TLSModel

extension RuleID.Plist {
    /// `plist.key.misspelled`: A key that is not an ATS key but is close to one; Apple ignores it.
    package static let keyMisspelled: RuleID = "plist.key.misspelled"
}

/// A key close to an ATS key: `NSAppTransportSecurity` misspelled at the Info.plist root, or an unknown key of
/// a scanned dictionary with a suggestion. Reads the names ``KeyNameScan`` found.
struct KeyMisspelledRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyMisspelled, .plist, .error,
                title: "A key that is not an ATS key but is close to one; Apple ignores it.",
                help: """
                    Apple reads ATS keys by exact, case-sensitive name, so a misspelling (`NSAllowArbitraryLoads`, \
                    `NSIncludesSubdomain`) or a key that never existed (`NSAllowsArbitraryLoadsInMedia`) is silently \
                    ignored and the default applies. Use the key the message suggests.
                    """)
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) {
        if let key = c.keyNames.rootMisspelling {
            c.emit(
                RuleID.Plist.keyMisspelled, .error,
                "unknown key \(key): did you mean NSAppTransportSecurity? As written, Apple ignores the whole "
                    + "dictionary and default ATS applies",
                filePath: [key], keyPath: key)
        }
        for scanned in c.keyNames.dictionaries {
            guard let level = scanned.level else { continue }
            for key in scanned.keys where ATSKey.named(key) == nil {
                guard let (suggestion, meant) = KeyNameScan.suggestion(for: key, level: level) else { continue }
                var message = "unknown key \(key): did you mean \(suggestion)? Apple ignores unknown keys"
                if !meant.levels.contains(level) {
                    message +=
                        " (and \(suggestion) belongs "
                        + "\(meant.levels.map(KeyNameScan.describe).sorted().joined(separator: " or ")), not "
                        + "\(KeyNameScan.describe(level)))"
                }
                c.emit(RuleID.Plist.keyMisspelled, .error, message, at: scanned.path + [key])
            }
        }
    }
}
