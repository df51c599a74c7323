import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.no-identities` (its entry is below).
    package static let pinningNoIdentities: RuleID = "plist.pinning.no-identities"
}

/// A pinned domain entry with neither identity array. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningNoIdentitiesRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningNoIdentities, .plist, .error,
                title: "An NSPinnedDomains entry with neither NSPinnedCAIdentities nor NSPinnedLeafIdentities.",
                help: """
                    A pinned domain entry pins nothing without at least one identity array. Add \
                    `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` with `SPKI-SHA256-BASE64` pins, or remove the \
                    entry.
                    """,
                appleKey: "NSPinnedDomains")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries where p.present.isEmpty {
            c.emit(
                RuleID.Plist.pinningNoIdentities, .error,
                "pinned domain \(p.name) has neither NSPinnedCAIdentities nor NSPinnedLeafIdentities: it pins "
                    + "nothing",
                at: p.path)
        }
    }
}
