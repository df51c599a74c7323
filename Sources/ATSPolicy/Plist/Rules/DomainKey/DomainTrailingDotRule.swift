import TLSModel

extension RuleID.Plist {
    /// `plist.domain.trailing-dot`: A domain key with a trailing dot; it matches only hosts written with the dot.
    package static let domainTrailingDot: RuleID = "plist.domain.trailing-dot"
}

/// A host name domain key with a trailing dot, read with leading dots set aside. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainTrailingDotRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainTrailingDot, .plist, .warning,
                title: "A domain key with a trailing dot; it matches only hosts written with the dot.",
                help: """
                    The trailing dot is significant: `example.com.` matches only requests to `example.com.`, and \
                    `example.com` does not match those. Drop the dot unless the app really requests the dotted name.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && d.hostBeforeTrailingDot.hasSuffix(".") {
            let host = d.hostBeforeTrailingDot
            c.emit(
                RuleID.Plist.domainTrailingDot, .warning,
                "\(d.what) key \(d.name) ends with a dot: it matches only requests to \(host) written with the dot, "
                    + "not \(host.dropLast())",
                at: d.path)
        }
    }
}
