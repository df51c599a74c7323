import Foundation
import TLSModel

/// System trust: the chain must verify to a root in the OS store or one installed by the user or an MDM
/// administrator, and be inside its validity period (reference §1.1 "Trust"). No Info.plist key relaxes it;
/// with ATS off for the host the app could accept the chain in its own trust-evaluation code (§6).
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
        switch certificate.trusted {
        case false?:
            let why = certificate.verifyError ?? "verification failed"
            context.fail(.Trust.untrusted, "the chain does not verify to a trusted root (\(why)); \(fix)")
        case nil:
            context.unknowns.append("the certificate chain was not verified")
        case true?:
            break
        }
        // Re-judging a saved profile at another time: check the dates against `now`.
        guard let leaf = context.leaf, certificate.trusted != false else { return }
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

    static func day(_ date: Date) -> String { CalendarDay.string(from: date) }
}
