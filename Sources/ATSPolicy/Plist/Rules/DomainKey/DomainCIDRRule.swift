import TLSModel

extension RuleID.Plist {
    /// `plist.domain.cidr`: A CIDR range domain key; honoured only from iOS 17 / macOS 14.
    package static let domainCIDR: RuleID = "plist.domain.cidr"
}

/// A valid CIDR range exception domain key: a warning when the app supports releases before iOS 17, a note
/// otherwise. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainCIDRRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainCIDR, .plist, .note,
                title: "A CIDR range domain key; honoured only from iOS 17 / macOS 14.",
                help: """
                    CIDR ranges (`10.0.0.0/8`) as domain keys work from iOS 17 / macOS 14; earlier releases ignore the \
                    entry. A note when the app's lowest OS is iOS 17 or later, a warning below.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.stop == nil && d.kind == .cidr(valid: true) && !d.pinned {
            c.emit(
                RuleID.Plist.domainCIDR, c.lowestOS.major < 17 ? .warning : .note,
                DomainEntry.addressKeyMessage(c, d.name, what: "a CIDR range"), at: d.path)
        }
    }
}
