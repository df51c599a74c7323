import TLSModel

extension RuleID.Plist {
    /// `plist.domain.uppercase`: A domain key with upper-case letters; exception lookups are exact and lower-case.
    package static let domainUppercase: RuleID = "plist.domain.uppercase"
}

/// An exception domain key with upper-case letters (`NSPinnedDomains` compares case-insensitively). Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainUppercaseRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainUppercase, .plist, .error,
                title: "A domain key with upper-case letters; exception lookups are exact and lower-case.",
                help: """
                    `NSExceptionDomains` lookup is an exact match and Apple documents keys in lower case, so \
                    `API.Example.com` never matches (`NSPinnedDomains`, by contrast, compares case-insensitively). Write the key in lower case.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && !d.pinned && d.host != d.host.lowercased() {
            c.emit(
                RuleID.Plist.domainUppercase, .error,
                "exception domain key \(d.name) has upper-case letters: the lookup is exact and hosts are lower case, "
                    + "so it never matches; use \(d.host.lowercased())",
                at: d.path)
        }
    }
}
