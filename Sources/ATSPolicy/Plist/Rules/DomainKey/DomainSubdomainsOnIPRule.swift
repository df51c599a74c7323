import TLSModel

extension RuleID.Plist {
    /// `plist.domain.subdomains-on-ip`: NSIncludesSubdomains on an IP or CIDR entry, where it has no effect.
    package static let domainSubdomainsOnIP: RuleID = "plist.domain.subdomains-on-ip"
}

/// `NSIncludesSubdomains = YES` on an IP address or valid CIDR range entry. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainSubdomainsOnIPRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainSubdomainsOnIP, .plist, .error,
                title: "NSIncludesSubdomains on an IP or CIDR entry, where it has no effect.",
                help: """
                    Subdomains exist only for names; on an IP address or CIDR entry `NSIncludesSubdomains` does \
                    nothing. Remove it, or list the range you meant as CIDR.
                    """,
                appleKey: "NSIncludesSubdomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isAddress {
            guard let entry = d.entry, c.entryBool(entry, .includesSubdomains) == true else { continue }
            let what = d.kind == .ipAddress ? "an IP address" : "a CIDR range"
            c.emit(
                RuleID.Plist.domainSubdomainsOnIP, .error,
                "NSIncludesSubdomains has no effect on \(what) entry (\(d.name)); remove it",
                at: d.path + [ATSKey.includesSubdomains.name])
        }
    }
}
