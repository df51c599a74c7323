import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.no-backup`: A pinned domain with a single pin and no backup pin.
    package static let pinningNoBackup: RuleID = "plist.pinning.no-backup"
}

/// A pinned domain with exactly one usable pin that is not a placeholder. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningNoBackupRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningNoBackup, .plist, .warning,
                title: "A pinned domain with a single pin and no backup pin.",
                help: """
                    With one pin, a key rotation or a CA change breaks the app until an update ships. Add a backup \
                    pin: a key kept offline, or a second CA's key.
                    """,
                appleKey: "NSPinnedDomains")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries where !p.present.isEmpty && p.validPins == 1 {
            let placeholders = p.placeholders
            let shown = placeholders.map {
                c.document.line(forATSKeyPath: $0).map { "line \($0)" } ?? $0.joined(separator: ".")
            }
            let also =
                placeholders.isEmpty
                ? "" : " (its other pin, \(DuplicateKeyRules.listed(shown)), is a placeholder that matches no key)"
            c.emit(
                RuleID.Plist.pinningNoBackup, .warning,
                "pinned domain \(p.name) has a single pin and no backup\(also): a key rotation or new CA would break "
                    + "every connection until an app update",
                at: p.path)
        }
    }
}
