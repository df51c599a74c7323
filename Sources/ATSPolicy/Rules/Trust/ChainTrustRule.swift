import Foundation
import TLSModel

/// System trust: the chain must verify to a root in the OS store or one installed by the user or an MDM
/// administrator, and be inside its validity period (reference §1.1 "Trust"). The OS store is Apple's store of the
/// release being judged when the probe verified against Apple's stores (the default); it may be this machine's
/// store or a PEM bundle when the user chose one. No Info.plist key relaxes it; with ATS off for the host the app
/// could accept the chain in its own trust-evaluation code (§6).
struct ChainTrustRule: ATSRule {
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
                Self.applyAnnounced(finding, context: &context)
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

    /// An announced distrust by issuance date (support 121668): a failure on the releases that enforce it; on an
    /// older release, known not to enforce it, a note.
    static func applyAnnounced(_ finding: DistrustFinding, context: inout RuleContext) {
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
