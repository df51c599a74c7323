import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.wrong-digest-length` (its entry is below).
    package static let pinningWrongDigestLength: RuleID = "plist.pinning.wrong-digest-length"
}

/// A Base64 pin that does not decode to 32 bytes. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningWrongDigestLengthRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningWrongDigestLength, .plist, .error,
                title: "An SPKI-SHA256-BASE64 value that does not decode to a 32-byte SHA-256 digest.",
                help: """
                    The pin decodes, but not to 32 bytes, so it can never equal a SHA-256 digest (often a SHA-1 pin, \
                    or the key itself instead of its hash). Use the SHA-256 of the DER SubjectPublicKeyInfo.
                    """,
                appleKey: "SPKI-SHA256-BASE64")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries {
            for i in p.identities {
                guard case .wrongLength(let count, let looksHex) = i.identity else { continue }
                let spkiKey = ATSKey.spkiSHA256Base64.name
                let hint =
                    looksHex
                    ? " (it looks like a hex digest; Apple wants the Base64 of the 32 bytes)"
                    : count == 20 ? " (a SHA-1 digest?)" : ""
                c.emit(
                    RuleID.Plist.pinningWrongDigestLength, .error,
                    "\(spkiKey) of \(p.name) decodes to \(count) bytes\(hint), not the 32 of a SHA-256 digest: no "
                        + "certificate can match it",
                    at: i.path + [spkiKey])
            }
        }
    }
}
