import TLSModel

extension RuleID.Plist {
    /// `plist.domain.port`: A domain key with a port; ports are not allowed and this one never matches.
    package static let domainPort: RuleID = "plist.domain.port"
}

/// A host name domain key with a port. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainPortRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainPort, .plist, .error,
                title: "A domain key with a port; ports are not allowed and this one never matches.",
                help: """
                    Apple documents that domain keys take no port: `example.com:8443` never matches. Write the host \
                    alone; the entry covers every port.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && d.hasPort {
            c.emit(
                RuleID.Plist.domainPort, .error,
                "\(d.what) key \(d.name) has a port: ports are not allowed, so it never matches; use \(d.bareHost) "
                    + "(it covers every port)",
                at: d.path)
        }
    }
}
