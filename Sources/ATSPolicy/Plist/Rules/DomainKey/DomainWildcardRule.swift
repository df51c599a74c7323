import TLSModel

extension RuleID.Plist {
    /// `plist.domain.wildcard`: A domain key with a wildcard; use NSIncludesSubdomains instead.
    package static let domainWildcard: RuleID = "plist.domain.wildcard"
}

/// A host name domain key with a wildcard, read with scheme, path and port set aside. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainWildcardRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainWildcard, .plist, .error,
                title: "A domain key with a wildcard; use NSIncludesSubdomains instead.",
                help: """
                    Wildcards are not allowed in domain keys: `*.example.com` matches nothing. Write `example.com` with \
                    `NSIncludesSubdomains = YES`.
                    """,
                appleKey: "NSIncludesSubdomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && d.hostBeforeWildcard.contains("*") {
            c.emit(
                RuleID.Plist.domainWildcard, .error,
                "\(d.what) key \(d.name) has a wildcard, which never matches; use "
                    + "\(d.hostBeforeWildcard.replacingOccurrences(of: "*.", with: "")) with NSIncludesSubdomains = <true/>",
                at: d.path)
        }
    }
}
