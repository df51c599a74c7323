import TLSModel

/// A root Apple announced it distrusts for certificates issued after a date (support 121668): a leaf issued after
/// the date fails on the releases that enforce it. Not an ``ATSRule`` of its own: ``ChainTrustRule`` judges each
/// distrust finding of a trusted path in order, and hands the announced ones here, so violations keep their order.
struct AnnouncedDistrustRule: Rule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.distrustAnnounced, .trust, .error,
                title: "The chain ends at a root Apple distrusts for certificates issued after an announced date.",
                help: """
                    Apple announces in its support article 121668 ("Changes to certificate authorities and \
                    certificates") CAs whose certificates it rejects when issued after an effective date, while the \
                    roots stay in its store for what was issued before: Entrust and AffirmTrust (2024-11-15), AC \
                    Camerfirma (2024-11-15). A leaf issued after the date under such a root fails to validate on \
                    current Apple systems; one issued on or before it keeps working until it expires. No Info.plist \
                    key relaxes it. Move to a certificate from another CA. `atscheck roots --format json` shows the \
                    date beside each affected root.
                    """)
        ]
    }

    /// An announced distrust by issuance date (support 121668): a failure on the releases that enforce it; on an
    /// older release, known not to enforce it, a note.
    static func judge(_ finding: DistrustFinding, context: inout RuleContext) {
        let message = "'\(finding.certificate)': \(finding.detail) (\(finding.source))"
        if let first = finding.enforcedFromIOS,
            [context.os.major, context.os.minor].lexicographicallyPrecedes(
                first.split(separator: ".").compactMap { Int($0) })
        {
            context.notes.append(
                "\(message); enforced from iOS \(first) (\(finding.enforcedFromSource ?? "source not recorded")), so "
                    + "\(context.osName) still accepts it")
            return
        }
        context.fail(.Trust.distrustAnnounced, message + "; no Info.plist key relaxes it: move to another CA")
    }
}
