import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.invalid-base64`: An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it.
    package static let pinningInvalidBase64: RuleID = "plist.pinning.invalid-base64"
}

/// A pin string that is not Base64. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningInvalidBase64Rule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningInvalidBase64, .plist, .error,
                title: "An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it.",
                help: """
                    Apple skips malformed pins, so the entry may pin less than intended, or nothing. Replace the value \
                    with the Base64 SHA-256 of the SubjectPublicKeyInfo.
                    """,
                appleKey: "SPKI-SHA256-BASE64")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries {
            for i in p.identities {
                guard case .invalidBase64 = i.identity else { continue }
                let spkiKey = ATSKey.spkiSHA256Base64.name
                c.emit(
                    RuleID.Plist.pinningInvalidBase64, .error,
                    "\(spkiKey) of \(p.name) is not valid Base64: Apple skips it", at: i.path + [spkiKey])
            }
        }
    }
}
