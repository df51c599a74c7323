import TLSModel

extension RuleID.Plist {
    /// `plist.key.unknown`: A key atscheck does not know; Apple ignores unknown keys.
    package static let keyUnknown: RuleID = "plist.key.unknown"
}

/// An unknown key of a scanned dictionary with no suggestion. Reads the names ``KeyNameScan`` found.
struct KeyUnknownRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyUnknown, .plist, .warning,
                title: "A key atscheck does not know; Apple ignores unknown keys.",
                help: """
                    The key is not one of Apple's documented ATS keys, and not close enough to one to be a likely \
                    typo. ATS ignores it. Remove it, or check Apple's documentation for the key you meant.
                    """)
        ]
    }

    func check(_ c: LintContext) {
        for scanned in c.keyNames.dictionaries {
            guard let level = scanned.level else { continue }
            for key in scanned.keys where ATSKey.named(key) == nil {
                guard KeyNameScan.suggestion(for: key, level: level) == nil else { continue }
                c.emit(
                    RuleID.Plist.keyUnknown, .warning,
                    "unknown key \(key) \(KeyNameScan.describe(level)): not an ATS key atscheck knows, and Apple "
                        + "ignores unknown keys",
                    at: scanned.path + [key])
            }
        }
    }
}
