import TLSModel

extension RuleID.Audit {
    /// An `NSPinnedDomains` key that covers no listed `https` endpoint, so its pins were not checked (note).
    package static let pinnedDomainNoEndpoint: RuleID = "audit.pinned-domain.no-endpoint"
}

/// An `NSPinnedDomains` entry that covers no `https` endpoint of the list. The pin audit emits it (it checks the
/// pins against the live paths); this rule declares its entry with the other audit rules.
struct PinnedDomainNoEndpointRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.pinnedDomainNoEndpoint, .audit, .note,
                title: "An NSPinnedDomains entry that covers no https endpoint in the list.",
                help: """
                    No `https` endpoint of the list is the entry's host or, with `NSIncludesSubdomains`, one label \
                    below it, so the audit could not check its pins against a live path. Add the hosts the app \
                    pins to the endpoint list, or remove the stale entry; a pin for a server that no longer exists \
                    only hides which pins matter.
                    """,
                appleKey: "NSPinnedDomains")
        ]
    }
}
