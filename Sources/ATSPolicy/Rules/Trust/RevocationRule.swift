import Foundation
import TLSModel

/// Revocation as trustd checks it (docs/revocation.md; Apple's `trust/trustd/SecRevocationServer.c`,
/// `SecPathBuilderCheckRevocation`), on every OS release, with ATS on or off:
///
/// - a stapled OCSP response, verified (``StapledOCSPFacts/usable``), that says *revoked* fails the chain
///   (`kSecPolicyCheckRevocation`, a fatal result no exception overrides: `SecPolicyChecks.list`);
/// - a verified *revoked* response outside its validity is kept by trustd, which asks the certificate's responder for
///   a newer one when it may use the network: without a responder to ask it still fails; with one, the device's
///   answer depends on what atscheck did not ask, so the verdict is ambiguous;
/// - any other unusable response is ignored by trustd, as if none were stapled: a note says why;
/// - where a device would ask a responder online (an EV leaf, Apple's Valid database) and atscheck did not, a note
///   says so, so that the report never implies "not revoked" (a failed or empty online check is not a failure on a
///   device: the check is soft-fail unless the app requires a positive answer).
///
/// No stapled response is no finding: Let's Encrypt's leaves have named no OCSP responder since 2025.
struct RevocationRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.revoked, .trust, .error, title: "A stapled OCSP response says a certificate is revoked.",
                help: """
                    trustd reads the OCSP response the server staples for every certificate of the path that has an \
                    issuer, and a response signed by that issuer (or a responder it certified for OCSP signing) that \
                    says *revoked* fails the evaluation on every OS release: a fatal result that no trust exception or \
                    Info.plist key overrides. trustd keeps a revoked response even past its nextUpdate and asks the \
                    certificate's responder for a newer one; atscheck does not ask responders, so such a chain is \
                    ambiguous when a responder could answer. Replace the certificate (and stop stapling the old \
                    response). An invalid, expired or unrelated staple is ignored by trustd and reported in a note; \
                    where a device would also check online (EV leaves, CAs Apple's Valid database leaves to OCSP) a \
                    note says so. docs/revocation.md.
                    """)
        ]
    }

    func apply(to context: inout RuleContext) {
        guard let certificate = context.profile.certificate, let revocation = certificate.revocation else { return }
        if let staple = revocation.stapled { judge(staple, leafResponders: revocation.leafResponders, &context) }
        for check in revocation.onlineChecks { context.notes.append(Self.onlineNote(check)) }
    }

    private func judge(_ staple: StapledOCSPFacts, leafResponders: [String], _ context: inout RuleContext) {
        let subject = "'\(staple.certificate ?? "the leaf")'"
        let signer = Self.signer(staple)
        if staple.usable {
            switch staple.status {
            case .revoked?:
                context.fail(
                    .Trust.revoked,
                    "\(subject) is revoked: the server staples an OCSP response signed by \(signer) that says it was "
                        + "revoked\(Self.revocation(staple)); trustd refuses a revoked certificate on every OS release, "
                        + "and no Info.plist key or trust exception overrides it")
            case .unknown?:
                context.notes.append(
                    "stapled OCSP response: 'unknown' for \(subject) (signed by \(signer)); trustd takes no status from "
                        + "it, which is not an error")
            case .good?, nil:
                break
            }
            return
        }
        let why = Self.problem(staple)
        if staple.revokedOutsideValidity {
            let isLeaf = staple.certificateSHA256 == context.profile.certificate?.leaf?.sha256
            let said =
                "the server staples an OCSP response signed by \(signer) that says \(subject) was revoked"
                + "\(Self.revocation(staple)), outside its validity (\(why))"
            if isLeaf, leafResponders.isEmpty {
                context.fail(
                    .Trust.revoked,
                    "\(said); trustd keeps a revoked response however old, and the certificate names no OCSP "
                        + "responder to ask for a newer one, so the device refuses it")
            } else {
                let ask = isLeaf ? " (\(leafResponders.joined(separator: ", ")))" : ""
                context.ambiguous(
                    "\(said): trustd keeps it and asks the certificate's OCSP responder\(ask) for a newer response, and "
                        + "refuses the certificate unless that answer is newer and good; atscheck does not ask "
                        + "responders (ask one with `openssl ocsp -issuer ISSUER.pem -cert LEAF.pem -url URL`)")
            }
            return
        }
        context.notes.append(
            "the stapled OCSP response is not used: \(why); trustd ignores such a response, as if none were stapled")
    }

    /// `its issuer 'CN=…'`, `the delegated responder 'CN=…'`, or `an unverified signer`.
    static func signer(_ staple: StapledOCSPFacts) -> String {
        let subject = staple.responderSubject.map { " '\($0)'" } ?? ""
        switch staple.responder {
        case .issuer?: return "its issuer\(subject)"
        case .delegated?: return "the delegated responder\(subject)"
        case nil: return "a signer that could not be verified"
        }
    }

    /// ` on 2026-11-01 (keyCompromise)`, or empty.
    static func revocation(_ staple: StapledOCSPFacts) -> String {
        var text = staple.revokedAt.map { " on \(CalendarDay.string(from: $0))" } ?? ""
        if let reason = staple.reason { text += " (\(reason))" }
        return text
    }

    /// What is wrong with an unusable response, with its detail.
    static func problem(_ staple: StapledOCSPFacts) -> String {
        let kind: String
        switch staple.problem {
        case .malformed?: kind = "it does not parse"
        case .unsuccessful?: kind = "it carries no status"
        case .otherCertificate?: kind = "it is about another certificate"
        case .unverified?: kind = "its signature is not from the issuer or a responder the issuer certified"
        case .notYetValid?: kind = "it is not valid yet"
        case .expired?: kind = "it has expired"
        case .noIssuer?: kind = "the certificate has no issuer in the chain to check it against"
        case nil: kind = "it has no status"
        }
        return staple.detail.map { "\(kind): \($0)" } ?? kind
    }

    /// The note for a certificate a device checks online.
    static func onlineNote(_ check: OnlineRevocationCheck) -> String {
        let why = check.reasons.map { reason -> String in
            switch reason {
            case .extendedValidation: "the leaf carries an EV policy"
            case .validDatabase: "Apple's Valid database leaves its issuer's revocation status to OCSP"
            }
        }.joined(separator: "; ")
        let who = check.index == 0 ? "the leaf '\(check.certificate)'" : "'\(check.certificate)'"
        let answer =
            check.responders.isEmpty
            ? "it names no OCSP responder, so the device gets no answer and goes on (trustd's check is soft-fail)"
            : "responder \(check.responders.joined(separator: ", ")); no answer is not a failure (soft-fail), a "
                + "'revoked' answer refuses the connection"
        return "revocation: a device asks about \(who) online (\(why)) and atscheck did not, so this report does not "
            + "show that it is not revoked; \(answer)"
    }
}
