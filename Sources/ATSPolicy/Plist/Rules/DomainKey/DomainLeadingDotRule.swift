import TLSModel

extension RuleID.Plist {
    /// `plist.domain.leading-dot`: A domain key with a leading dot; use NSIncludesSubdomains instead.
    package static let domainLeadingDot: RuleID = "plist.domain.leading-dot"
}

/// A host name domain key with a leading dot, read with a wildcard set aside. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainLeadingDotRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainLeadingDot, .plist, .error,
                title: "A domain key with a leading dot; use NSIncludesSubdomains instead.",
                help: """
                    A leading dot does not mean "and subdomains": `.example.com` matches nothing. Write `example.com` \
                    with `NSIncludesSubdomains = YES`.
                    """,
                appleKey: "NSIncludesSubdomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && d.hostBeforeLeadingDot.hasPrefix(".") {
            let host = d.hostBeforeLeadingDot
            c.emit(
                RuleID.Plist.domainLeadingDot, .error,
                "\(d.what) key \(d.name) starts with a dot, which never matches; use \(host.drop(while: { $0 == "." })) "
                    + "with NSIncludesSubdomains = <true/>",
                at: d.path)
        }
    }
}
