import TLSModel

extension RuleID.Plist {
    /// `plist.domain.ip-address`: An IP address domain key; honoured only from iOS 17 / macOS 14.
    package static let domainIPAddress: RuleID = "plist.domain.ip-address"
}

/// An IP address exception domain key: a warning when the app supports releases before iOS 17, a note otherwise. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainIPAddressRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainIPAddress, .plist, .note,
                title: "An IP address domain key; honoured only from iOS 17 / macOS 14.",
                help: """
                    IP literals as `NSExceptionDomains` keys work from iOS 17 / macOS 14; earlier releases ignore the \
                    entry. A note when the app's lowest OS is iOS 17 or later, a warning below. For older releases use \
                    `NSAllowsLocalNetworking` for local addresses, or a host name.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.stop == nil && d.kind == .ipAddress && !d.pinned {
            c.emit(
                RuleID.Plist.domainIPAddress, c.lowestOS.major < 17 ? .warning : .note,
                DomainEntry.addressKeyMessage(c, d.name, what: "an IP address"), at: d.path)
        }
    }
}
