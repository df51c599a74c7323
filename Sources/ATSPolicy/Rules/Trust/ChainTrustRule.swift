import Foundation
import TLSModel

/// System trust: the chain must verify to a root in the OS store or one installed by the user or an MDM
/// administrator, and be inside its validity period (docs/apple-rules.md §1.1 "Trust"). The OS store is Apple's store
/// of the release being judged when the probe verified against Apple's stores (the default); it may be this machine's
/// store or a PEM bundle when the user chose one. No Info.plist key relaxes it; with ATS off for the host the app
/// could accept the chain in its own trust-evaluation code (§6).
struct ChainTrustRule: ATSRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.untrusted, .trust, .error,
                title: "The certificate chain does not verify to a trusted root.",
                help: """
                    Apple trusts a chain that verifies to a root in the OS store or one installed by the user or an \
                    MDM profile; anything else fails with NSURLError −1202. No Info.plist key relaxes this: with ATS \
                    on for the host the app may not loosen trust. Serve the full chain (leaf and intermediates) from \
                    a public CA; for a private CA, install its root on the devices (`--ca-file` tells atscheck about it).
                    """),
            RuleDescriptor(
                RuleID.Trust.distrusted, .trust, .error,
                title: "Apple's revocation database does not accept a certificate of the chain.",
                help: """
                    Besides removing roots, Apple restricts CAs through its revocation database (valid.apple.com, \
                    which every device downloads): certificates a CA issued after a cut-off date (TrustCor: from \
                    2022-12-01), CAs allowed only for uses other than TLS, CAs whose certificates are accepted only \
                    from an allow-list, and CAs under which only intermediates Apple lists are accepted (the Symantec \
                    family). atscheck carries these restrictions from Apple's published database snapshot. Move to a \
                    certificate from a CA without the restriction.
                    """),
            RuleDescriptor(
                RuleID.Trust.expired, .trust, .error, title: "A certificate of the chain has expired.",
                help: """
                    Every certificate of the verified chain must be inside its validity period at the time of the \
                    check (the scan time, or `now` when a saved profile is judged again). No Info.plist key relaxes \
                    it. Renew the certificate, or replace the expired intermediate the server sends.
                    """),
            RuleDescriptor(
                RuleID.Trust.notYetValid, .trust, .error, title: "A certificate of the chain is not valid yet.",
                help: """
                    A certificate's notBefore is in the future, so trust evaluation fails until then. This is usually \
                    a certificate issued with a wrong clock or installed early. Serve a certificate that is already \
                    valid.
                    """),
        ]
    }

    func apply(to context: inout RuleContext) {
        guard let certificate = context.profile.certificate else {
            context.unknowns.append("no certificate was captured")
            return
        }
        let fix =
            context.policy.atsRequired
            ? "ATS allows no exception for an untrusted chain"
            : "only the app's own trust-evaluation code could accept it"
        let outcome = context.storeOutcome
        // OpenSSL stops at a date error (X509_V_ERR_CERT_NOT_YET_VALID 9, X509_V_ERR_CERT_HAS_EXPIRED 10): the chain
        // is judged by its dates below, which name the certificate, rather than as untrusted.
        let dateError = [9, 10].contains(outcome?.verifyErrorCode ?? certificate.verifyErrorCode)
        let datesFail = context.chain.contains { $0.notAfter < context.now || $0.notBefore > context.now }
        switch outcome?.trusted ?? certificate.trusted {
        case false? where dateError && datesFail:
            break
        case false? where Self.issuerUnfetched(outcome, certificate) != nil:
            // trustd would fetch the missing issuer; atscheck could not: the verdict depends on the network.
            context.ambiguous(Self.issuerUnfetched(outcome, certificate)!)
        case false?:
            let why = outcome?.verifyError ?? certificate.verifyError ?? "verification failed"
            context.fail(.Trust.untrusted, "\(Self.untrustedReason(outcome, context: context, why: why)); \(fix)")
        case nil:
            context.unknowns.append("the certificate chain was not verified")
        case true?:
            break
        }
        if let outcome, let evaluation = certificate.trust {
            context.notes.append("trust store: \(outcome.store)")
            Self.noteFetchedIssuers(outcome, evaluation, context: &context)
            Self.noteOtherReleases(outcome, evaluation, context: &context)
            for finding in outcome.trusted ? outcome.distrust : [] {
                guard finding.kind == .announcedDistrust else {
                    context.fail(
                        .Trust.distrusted,
                        "'\(finding.certificate)': \(finding.detail) (\(finding.source))"
                            + (finding.overridable ? "; the user may override it" : ""))
                    continue
                }
                AnnouncedDistrustRule.judge(finding, context: &context)
            }
        }
        // Re-judging a saved profile at another time: check the dates against `now`.
        guard let leaf = context.leaf, outcome?.trusted ?? certificate.trusted != false || dateError else { return }
        for cert in context.chain {
            if cert.notAfter < context.now {
                let who = cert == leaf ? "the certificate" : "chain certificate '\(cert.subject)'"
                context.fail(.Trust.expired, "\(who) expired on \(Self.day(cert.notAfter)); \(fix)")
            } else if cert.notBefore > context.now {
                let who = cert == leaf ? "the certificate" : "chain certificate '\(cert.subject)'"
                context.fail(.Trust.notYetValid, "\(who) is not valid before \(Self.day(cert.notBefore)); \(fix)")
            }
        }
    }

    /// Why the chain fails the judged release's store, naming the store and, when the probe found it elsewhere,
    /// the root and what Apple's data says of it.
    static func untrustedReason(_ outcome: StoreOutcome?, context: RuleContext, why: String) -> String {
        guard let outcome else { return "the chain does not verify to a trusted root (\(why))" }
        let store = outcome.store
        guard let root = outcome.untrustedRoot else {
            return "the chain does not verify to a trusted root (\(why)); judged with \(store)"
        }
        switch root.status {
        case .removedByApple:
            return "the chain ends at '\(root.name)', a root Apple removed from its store (certificates/removed/ in "
                + "security_certificates); no current Apple release trusts it"
        case .addedLater:
            return "the chain ends at '\(root.name)', which is not in Apple's store until iOS \(root.iOS ?? "?") "
                + "(judged with \(store))"
        case .droppedEarlier:
            return "the chain ends at '\(root.name)', which Apple's store no longer has after iOS \(root.iOS ?? "?") "
                + "(judged with \(store))"
        case .hostOnly:
            return "the chain ends at '\(root.name)', a root this machine trusts that is in no Apple store "
                + "(judged with \(store))"
        }
    }

    /// Where Apple's stores disagree about the chain, say which releases trust it; for releases whose store is also
    /// updated over the air (iOS 18+), say that a device's store may be newer than its release's.
    static func noteOtherReleases(_ outcome: StoreOutcome, _ evaluation: TrustEvaluation, context: inout RuleContext) {
        guard evaluation.storesDisagree else { return }
        let ranges = evaluation.releaseRanges
        context.notes.append(
            "Apple's stores disagree on this chain: trusted by the stores of \(ranges.trusted), not by those of "
                + "\(ranges.untrusted) (\(evaluation.label))")
        let major = outcome.iOSNumbers.first
        let sameMajor = evaluation.stores.filter { $0.iOSNumbers.first == major && $0.overTheAir }
        if outcome.overTheAir, Set(sameMajor.map(\.trusted)).count > 1 {
            context.notes.append(
                "iOS \(major.map(String.init) ?? "?") devices also receive trust-store updates over the air, and the "
                    + "stores of its point releases disagree: a device's store may be newer than its release's")
        }
    }

    static func day(_ date: Date) -> String { CalendarDay.string(from: date) }

    /// OpenSSL's errors for an issuer the path lacks (`X509_V_ERR_UNABLE_TO_GET_ISSUER_CERT`,
    /// `…_UNABLE_TO_GET_ISSUER_CERT_LOCALLY`, `…_UNABLE_TO_VERIFY_LEAF_SIGNATURE`).
    static let missingIssuerCodes: Set<Int> = [2, 20, 21]

    /// Why the verdict depends on a fetch atscheck did not make: the chain stops at a missing issuer that names a
    /// caIssuers URL trustd would fetch (docs/path-building.md, "Missing intermediates"), and that fetch was off or
    /// failed. Nil when the chain is untrusted for another reason, or the fetch was made.
    static func issuerUnfetched(_ outcome: StoreOutcome?, _ certificate: CertificateReport) -> String? {
        guard missingIssuerCodes.contains(outcome?.verifyErrorCode ?? certificate.verifyErrorCode ?? 0),
            let missing = certificate.trust?.unfetchedIssuer
        else { return nil }
        let why =
            missing.status == .disabled
            ? "atscheck did not fetch it: \(missing.reason ?? "fetching is off")"
            : "atscheck could not fetch it: \(missing.reason ?? "the fetch failed")"
        return "the server does not send the issuer of '\(missing.certificate)'; iOS fetches it from \(missing.url) "
            + "(its AIA caIssuers URL) and trusts the chain only if that fetch succeeds; \(why). Serve the "
            + "intermediate with the leaf, or scan where the URL can be fetched"
    }

    /// A path completed with issuers fetched from caIssuers URLs: which, from where (the warning that the server
    /// should send them is `trust.missing-intermediate`).
    static func noteFetchedIssuers(_ outcome: StoreOutcome, _ evaluation: TrustEvaluation, context: inout RuleContext) {
        guard outcome.trusted else { return }
        for fetch in evaluation.fetchedIssuers where fetch.certificates.contains(where: outcome.path.contains) {
            let names = fetch.certificates.compactMap { sha in context.chain.first { $0.sha256 == sha }?.subject }
            let what = names.isEmpty ? "the issuer" : names.map { "'\($0)'" }.joined(separator: ", ")
            context.notes.append(
                "the path was completed with \(what), the issuer of '\(fetch.certificate)', fetched from "
                    + "\(fetch.url) as iOS fetches it: the server does not send it")
        }
    }
}
