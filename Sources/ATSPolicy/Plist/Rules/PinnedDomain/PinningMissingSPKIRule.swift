import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.missing-spki`: A pinned identity without an SPKI-SHA256-BASE64 string.
    package static let pinningMissingSPKI: RuleID = "plist.pinning.missing-spki"
}

/// A pinned identity dictionary without its pin. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningMissingSPKIRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningMissingSPKI, .plist, .error,
                title: "A pinned identity without an SPKI-SHA256-BASE64 string.",
                help: """
                    Each pinned identity is a dictionary with an `SPKI-SHA256-BASE64` string: the Base64 SHA-256 of \
                    the certificate's DER SubjectPublicKeyInfo. Add it.
                    """,
                appleKey: "SPKI-SHA256-BASE64")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries {
            for i in p.identities {
                guard case .missingSPKI = i.identity else { continue }
                c.emit(
                    RuleID.Plist.pinningMissingSPKI, .error,
                    "pinned identity \(i.path.last!) of \(p.name) has no \(ATSKey.spkiSHA256Base64.name) key: it pins "
                        + "nothing",
                    at: i.path)
            }
        }
    }
}
