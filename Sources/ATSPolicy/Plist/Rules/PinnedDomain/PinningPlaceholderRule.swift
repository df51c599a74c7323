import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.placeholder` (its entry is below).
    package static let pinningPlaceholder: RuleID = "plist.pinning.placeholder"
}

/// Placeholder pins of a pinned domain that is not reported as having a single pin (``PinningNoBackupRule``
/// names them there): an error when every pin is one, a note otherwise. Reads the entry as ``PinnedEntry`` read it (docs/apple-rules.md §3.3).
struct PinningPlaceholderRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningPlaceholder, .plist, .note,
                title: "A pin that is a placeholder (one repeated character, such as AAAA…=); it never matches a key.",
                help: """
                    A SHA-256 digest is never one byte repeated, so a pin such as `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=` \
                    matches no certificate. Such pins are written to pass a library's rule that a backup pin must exist \
                    (TrustKit requires two), which leaves the app with no real backup. A note while another pin of the \
                    domain is real; an error when every pin of the domain is a placeholder (no connection can succeed). \
                    Pin a real backup key.
                    """,
                appleKey: "SPKI-SHA256-BASE64")
        ]
    }

    func check(_ c: LintContext) {
        for p in c.pinnedEntries where !p.present.isEmpty && p.validPins != 1 {
            let placeholders = p.placeholders
            guard let first = placeholders.first else { continue }
            let validPins = p.validPins
            let shown = placeholders.map {
                c.document.line(forATSKeyPath: $0).map { "line \($0)" } ?? $0.joined(separator: ".")
            }
            let count = placeholders.count == 1 ? "a placeholder pin" : "\(placeholders.count) placeholder pins"
            let effect =
                validPins == 0
                ? "every pin of the domain is one, so no certificate can match and every connection to it fails"
                : "they match no key, so they are no backup"
            c.emit(
                RuleID.Plist.pinningPlaceholder, validPins == 0 ? .error : .note,
                "pinned domain \(p.name) has \(count) (one character repeated, \(DuplicateKeyRules.listed(shown))): "
                    + "\(effect); pin a real backup key",
                at: first)
        }
    }
}
