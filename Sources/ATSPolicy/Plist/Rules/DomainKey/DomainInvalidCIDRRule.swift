import TLSModel

extension RuleID.Plist {
    /// `plist.domain.invalid-cidr`: A CIDR range Apple cannot parse; the entry never matches.
    package static let domainInvalidCIDR: RuleID = "plist.domain.invalid-cidr"
}

/// A domain key Apple parses as a CIDR range and rejects. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainInvalidCIDRRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainInvalidCIDR, .plist, .error,
                title: "A CIDR range Apple cannot parse; the entry never matches.",
                help: """
                    A key with `/` is parsed as a CIDR range (IPv4 or IPv6, prefix within the address length); an \
                    invalid one is logged and never matches. Fix the address or prefix length.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.stop == nil && d.kind == .cidr(valid: false) {
            c.emit(
                RuleID.Plist.domainInvalidCIDR, .error,
                "\(d.what) key \(d.name) is not a valid CIDR range (address/prefix length): Apple logs it and it never "
                    + "matches",
                at: d.path)
        }
    }
}
