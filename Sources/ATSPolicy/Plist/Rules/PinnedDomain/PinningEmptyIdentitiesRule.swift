import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.empty-identities`: An empty pinned identity array.
    package static let pinningEmptyIdentities: RuleID = "plist.pinning.empty-identities"
}

/// An empty identity array of a pinned domain entry. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningEmptyIdentitiesRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningEmptyIdentities, .plist, .warning, title: "An empty pinned identity array.",
                help: """
                    An empty `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` array adds no pin. Add the pins, or \
                    remove the array.
                    """,
                appleKey: "NSPinnedDomains")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries {
            for (key, identities) in p.present where identities.isEmpty {
                c.emit(
                    RuleID.Plist.pinningEmptyIdentities, .warning,
                    "\(key.name) of \(p.name) is an empty array: no certificate can match it", at: p.path + [key.name])
            }
        }
    }
}
