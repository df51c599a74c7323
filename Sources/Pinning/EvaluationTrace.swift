import Foundation
import TLSModel

/// Collects the steps, consulted evaluations and findings of one evaluation, in order.
struct EvaluationTrace {
    var steps: [PinStep] = []
    /// Evaluations whose verdict counted, with their anchors: they decide which trust checks applied.
    var consulted: [(anchors: String, policy: TrustPolicyChoice)] = []
    var findings: [Finding] = []
    var revocationRequested = false

    mutating func step(_ name: String, _ status: PinStep.Status, _ detail: String) {
        steps.append(PinStep(name, status, detail))
    }

    /// Runs a build whose verdict counts, records it, and returns its result.
    mutating func consult(
        _ builder: some TrustPathBuilding, anchors: AnchorChoice, policy: TrustPolicyChoice
    ) -> TrustPathResult {
        consulted.append((Describe.anchors(anchors), policy))
        return builder.build(anchors: anchors, policy: policy)
    }

    mutating func finding(_ rule: RuleID, _ message: String) {
        let severity = RuleRegistry.pins.descriptor(for: rule)?.severity ?? .warning
        findings.append(Finding(rule: rule, severity: severity, message: message))
    }

    /// Which trust checks applied, from the consulted evaluations' policies.
    func trustChecks() -> [TrustCheckApplication] {
        let ssl = consulted.filter { if case .ssl = $0.policy { return true } else { return false } }
        let withHost = ssl.filter { if case .ssl(let h?) = $0.policy { return !h.isEmpty } else { return false } }
        let any = !consulted.isEmpty
        let none = "no evaluation whose result counts ran under these options"
        func by(_ list: [(anchors: String, policy: TrustPolicyChoice)]) -> String {
            let names = list.map { "\(Describe.policy($0.policy)) with \($0.anchors)" }
            return "checked by " + Array(Set(names)).sorted().joined(separator: "; ")
        }
        let sslOnly = ssl.isEmpty ? (any ? "BasicX509 only: not part of its checks" : none) : by(ssl)
        return [
            TrustCheckApplication(.chain, any ? .applied : .skipped, any ? by(consulted) : none),
            TrustCheckApplication(.dates, any ? .applied : .skipped, any ? by(consulted) : none),
            TrustCheckApplication(
                .hostname, withHost.isEmpty ? .skipped : .applied,
                withHost.isEmpty
                    ? (any ? "no evaluation with an SSL policy bound to the host counts" : none) : by(withHost)),
            TrustCheckApplication(.serverAuthEKU, ssl.isEmpty ? .skipped : .applied, sslOnly),
            TrustCheckApplication(.keySizes, ssl.isEmpty ? .skipped : .applied, sslOnly),
            TrustCheckApplication(.sha1, ssl.isEmpty ? .skipped : .applied, sslOnly),
            TrustCheckApplication(.lifetimeCaps, ssl.isEmpty ? .skipped : .applied, sslOnly),
            TrustCheckApplication(
                .certificateTransparency, ssl.isEmpty ? .skipped : .unchecked,
                ssl.isEmpty
                    ? sslOnly
                    : "the SSL policy requires CT for system-anchored chains; atscheck cannot see every SCT source"),
            TrustCheckApplication(
                .revocation, revocationRequested ? .unchecked : .skipped,
                revocationRequested
                    ? "asked for by the evaluator; atscheck does not fetch OCSP or CRLs" : "no step asks for it"),
        ]
    }

    /// Where the emulation may differ from a device (docs/pinning-rules.md §8 "Differences to declare").
    static let limitations = [
        "trust anchors are this machine's store plus --ca-file, not Apple's root store: verdicts that depend on the "
            + "root (root pins, cross-signs) may differ on a device",
        "a missing intermediate is fetched from its AIA caIssuers URL as trustd does, and counts under the SSL "
            + "policy only (BasicX509 turns network access off); with --no-fetch, or a failed fetch, the path lacks it",
        "revocation, Certificate Transparency and roots installed on the device are not visible to atscheck",
    ]
}

/// One-line descriptions for step details.
enum Describe {
    static func policy(_ policy: TrustPolicyChoice) -> String {
        switch policy {
        case .ssl(let host?): return "SSL policy, host \(host)"
        case .ssl(nil): return "SSL policy, no host"
        case .basic: return "BasicX509"
        }
    }

    static func anchors(_ anchors: AnchorChoice) -> String {
        switch anchors {
        case .system: return "system and --ca-file anchors"
        case .pinned(let certs):
            return certs.count == 1
                ? "only the pinned certificate as anchor" : "only the \(certs.count) pinned certificates as anchors"
        }
    }

    /// `passed` / `failed: <error>` for a build.
    static func outcome(_ result: TrustPathResult) -> String {
        result.ok ? "verifies" : "fails: \(result.error ?? "does not verify")"
    }

    static func role(_ position: Int, count: Int) -> String {
        position == 0 ? "leaf" : position == count - 1 ? "anchor" : "intermediate"
    }

    static func certificate(_ c: CertificateFacts) -> String { c.commonName ?? c.subject }

    static func yesNo(_ value: Bool) -> String { value ? "YES" : "NO" }
}

/// Certificate and key identity as the libraries compare them.
enum Identity {
    /// Same certificate: equal DER bytes (the SHA-256 of the DER when either side has no bytes).
    static func sameCertificate(_ a: CertificateFacts, _ b: CertificateFacts) -> Bool {
        if !a.der.isEmpty && !b.der.isEmpty { return a.der == b.der }
        return a.sha256 == b.sha256
    }

    /// Same public key: equal SPKI (by its SHA-256) and key type. iOS compares `SecKey`s (type and raw key
    /// material); for RSA and EC keys that is the same test as SPKI equality.
    static func sameKey(_ a: CertificateFacts, _ b: CertificateFacts) -> Bool {
        a.spkiSHA256 == b.spkiSHA256 && a.keyType == b.keyType
    }

    /// The path entries of a path, marking what the server sent.
    static func entries(_ path: [CertificateFacts], served: [CertificateFacts]) -> [PinPathEntry] {
        path.enumerated().map { i, c in
            PinPathEntry(
                position: i, role: Describe.role(i, count: path.count), subject: c.subject, issuer: c.issuer,
                spkiSHA256: c.spkiSHA256, sha256: c.sha256, notAfter: c.notAfter,
                sentByServer: served.contains { sameCertificate($0, c) })
        }
    }
}
