import TLSModel

extension RuleID.Plist {
    /// `plist.domain.path`: A domain key with a path; keys are bare host names and this one never matches.
    package static let domainPath: RuleID = "plist.domain.path"
}

/// A host name domain key with a path (a `/` after an address is a CIDR range instead). Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainPathRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainPath, .plist, .error,
                title: "A domain key with a path; keys are bare host names and this one never matches.",
                help: """
                    Exceptions apply to a whole host, not a path, and the key is matched exactly, so \
                    `example.com/api` matches nothing. Write the host alone.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.isHostName && d.hasPath {
            c.emit(
                RuleID.Plist.domainPath, .error,
                "\(d.what) key \(d.name) has a path: keys are bare host names (a '/' is read as a CIDR range), so it "
                    + "never matches; use \(d.bareHost)",
                at: d.path)
        }
    }
}
