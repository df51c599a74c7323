import TLSModel

extension RuleID.Plist {
    /// `plist.domain.scheme`: A domain key with a URL scheme; keys are bare host names and this one never matches.
    package static let domainScheme: RuleID = "plist.domain.scheme"
}

/// A domain key with a URL scheme. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainSchemeRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainScheme, .plist, .error,
                title: "A domain key with a URL scheme; keys are bare host names and this one never matches.",
                help: """
                    Domain keys are matched against the request's host only, so `https://example.com` matches \
                    nothing. Write `example.com`.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.stop == nil && d.hasScheme {
            c.emit(
                RuleID.Plist.domainScheme, .error,
                "\(d.what) key \(d.name) has a URL scheme: keys are bare host names, so it never matches; use "
                    + "\(d.bareHost)",
                at: d.path)
        }
    }
}
