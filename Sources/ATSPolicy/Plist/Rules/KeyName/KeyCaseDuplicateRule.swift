import TLSModel

extension RuleID.Plist {
    /// `plist.key.case-duplicate`: Two keys that differ only in letter case; lookups are case-sensitive.
    package static let keyCaseDuplicate: RuleID = "plist.key.case-duplicate"
}

/// Keys of a scanned dictionary (or domain container) that differ only in case: every one but the one spelled as
/// the catalogue (or lower case, for domains) spells it. Reads the names ``KeyNameScan`` found.
struct KeyCaseDuplicateRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyCaseDuplicate, .plist, .error,
                title: "Two keys that differ only in letter case; lookups are case-sensitive.",
                help: """
                    Apple looks keys up by exact name, so only the correctly cased one counts, and exception domains \
                    are matched exactly. Keep one key with the documented spelling (lower-case for domains).
                    """)
        ]
    }

    func check(_ c: LintContext) {
        for scanned in c.keyNames.dictionaries {
            let groups = Dictionary(grouping: scanned.keys, by: { $0.lowercased() }).filter { $0.value.count > 1 }
            for (folded, group) in groups {
                let sorted = group.sorted()
                let canonical =
                    sorted.first { ATSKey.named($0) != nil } ?? sorted.first { $0 == folded } ?? sorted[0]
                for key in sorted where key != canonical {
                    c.emit(
                        RuleID.Plist.keyCaseDuplicate, .error,
                        "\(key) and \(canonical) differ only in case; Apple's lookups are case-sensitive, so \(key) is "
                            + "read separately (or not at all)",
                        at: scanned.path + [key])
                }
            }
        }
    }
}
