import Foundation
import TLSModel

/// An `AFSecurityPolicy` configuration (docs/pinning-rules.md §1.1).
package struct AFSecurityPolicyOptions: Sendable, Hashable {
    /// `AFSSLPinningMode`.
    package enum Mode: String, Sendable, Hashable, CaseIterable {
        /// `AFSSLPinningModeNone`.
        case none
        /// `AFSSLPinningModeCertificate`: whole certificates, DER.
        case certificate
        /// `AFSSLPinningModePublicKey`: the keys of the pinned certificates.
        case publicKey = "public-key"
    }

    /// `SSLPinningMode`.
    package var mode: Mode
    /// `allowInvalidCertificates` (default NO).
    package var allowInvalidCertificates: Bool
    /// `validatesDomainName` (default YES since 2.5.3).
    package var validatesDomainName: Bool
    /// The major version where §1.4 says versions differ: 2 (2.6.x), 3 or 4 (default, 4.0.x).
    package var afVersion: Int

    /// A configuration; defaults are AFNetworking 4's.
    /// - Parameters:
    ///   - mode: The pinning mode.
    ///   - allowInvalidCertificates: Skip the system trust gate.
    ///   - validatesDomainName: SSL policy bound to the host (YES) or BasicX509 (NO).
    ///   - afVersion: 2, 3 or 4.
    package init(
        mode: Mode, allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true, afVersion: Int = 4
    ) {
        self.mode = mode
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.afVersion = afVersion
    }

    /// The same mode without relaxations: the release build of docs/pinning-rules.md §2.
    package var release: AFSecurityPolicyOptions {
        AFSecurityPolicyOptions(
            mode: mode, allowInvalidCertificates: false, validatesDomainName: true, afVersion: afVersion)
    }

    /// Whether the configuration relaxes anything the release build enforces.
    package var isRelaxed: Bool { allowInvalidCertificates || !validatesDomainName }

    var pinOptions: [PinOption] {
        [
            PinOption("SSLPinningMode", mode.rawValue),
            PinOption("allowInvalidCertificates", Describe.yesNo(allowInvalidCertificates)),
            PinOption("validatesDomainName", Describe.yesNo(validatesDomainName)),
            PinOption("afVersion", String(afVersion)),
        ]
    }
}

/// `-[AFSecurityPolicy evaluateServerTrust:forDomain:]` (docs/pinning-rules.md §1.2, the decision table §1.3 and the
/// version differences §1.4).
package enum AFSecurityPolicyEvaluator {
    /// Decides as AFNetworking would.
    /// - Parameters:
    ///   - connection: Host, served chain, time.
    ///   - pinnedCertificates: `pinnedCertificates` (PublicKey mode derives its keys from them).
    ///   - options: The policy's properties.
    ///   - builder: Builds and verifies paths for the served chain.
    /// - Returns: The verdict with its steps.
    package static func evaluate(
        _ connection: PinConnection, pinnedCertificates: [CertificateFacts], options: AFSecurityPolicyOptions,
        builder: some TrustPathBuilding
    ) -> PinEvaluation {
        var run = AFRun(connection: connection, pins: pinnedCertificates, options: options)
        let verdict = run.decide(builder)
        var trace = run.trace
        if verdict.verdict == .reject {
            trace.finding(
                RuleID.Pins.rejected,
                "AFSecurityPolicy (\(options.mode.rawValue)) rejects \(connection.host): \(verdict.reason)")
        }
        if options.mode != .none {
            let identities = pinnedCertificates.map {
                options.mode == .certificate ? PinIdentity.certificate($0) : PinIdentity.publicKey(of: $0)
            }
            let livePath =
                run.matchPath.isEmpty
                ? builder.build(anchors: .system, policy: .ssl(host: connection.host)).path : run.matchPath
            // Certificate mode anchors on the pins themselves, so a pinned root is not a store choice.
            trace.findings += OutageWarnings.check(
                pins: identities, path: livePath.isEmpty ? connection.served : livePath, connection: connection
            )
            .filter { options.mode != .certificate || $0.rule != RuleID.Pins.rootOnly }
        }
        return PinEvaluation(
            library: .afnetworking, host: connection.host, options: options.pinOptions, verdict: verdict.verdict,
            result: verdict.result, steps: trace.steps,
            path: Identity.entries(run.matchPath, served: connection.served),
            matches: run.matches, pinMatched: run.pinCompared ? !run.matches.isEmpty : nil,
            noMatchReason: run.matches.isEmpty ? run.noMatchReason : nil, trustChecks: trace.trustChecks(),
            findings: trace.findings, limitations: EvaluationTrace.limitations)
    }
}

/// The state of one AFNetworking evaluation.
private struct AFRun {
    let connection: PinConnection
    let pins: [CertificateFacts]
    let options: AFSecurityPolicyOptions
    var trace = EvaluationTrace()
    var matchPath: [CertificateFacts] = []
    var matches: [PinMatch] = []
    var pinCompared = false
    var noMatchReason = "no pin comparison ran"

    init(connection: PinConnection, pins: [CertificateFacts], options: AFSecurityPolicyOptions) {
        self.connection = connection
        self.pins = pins
        self.options = options
    }

    typealias Decision = (verdict: PinVerdict, result: String, reason: String)

    mutating func decide(_ builder: some TrustPathBuilding) -> Decision {
        let host = connection.host
        // Step 1: the self-signed guard (2.6.0+).
        if options.allowInvalidCertificates && options.validatesDomainName && (options.mode == .none || pins.isEmpty) {
            let why = options.mode == .none ? "mode None" : "no pinned certificates"
            trace.step(
                "self-signed guard", .failed,
                "allowInvalidCertificates = YES, validatesDomainName = YES and \(why): rejected before any "
                    + "evaluation (\"you MUST use pinning\")"
            )
            return (
                .reject, "self-signed-guard",
                "the self-signed guard fires (\(why) with allowInvalidCertificates = YES and validatesDomainName = YES)"
            )
        }
        trace.step(
            "self-signed guard", .passed,
            "not triggered: it needs allowInvalidCertificates = YES, validatesDomainName = YES and mode None or no pins"
        )
        // Step 2: one policy replaces the trust's policies.
        let policy: TrustPolicyChoice = options.validatesDomainName ? .ssl(host: host) : .basic
        trace.step(
            "policy", .passed,
            options.validatesDomainName
                ? "validatesDomainName = YES: SSL policy bound to \(host)"
                : "validatesDomainName = NO: BasicX509 — no hostname, EKU, lifetime, key-size or SHA-1 checks")
        switch options.mode {
        case .none: return decideNone(builder, policy)
        case .certificate, .publicKey:
            guard let systemPath = systemGate(builder, policy) else {
                return (
                    .reject, "system-trust-failed", "the system trust evaluation (\(Describe.policy(policy))) fails"
                )
            }
            return options.mode == .certificate
                ? decideCertificate(builder, policy, systemPath: systemPath)
                : decidePublicKey(builder, policy, systemPath: systemPath)
        }
    }

    /// Step 3: mode None.
    mutating func decideNone(_ builder: some TrustPathBuilding, _ policy: TrustPolicyChoice) -> Decision {
        if options.allowInvalidCertificates {
            trace.step(
                "system trust", .skipped,
                "\(Describe.policy(policy)): skipped — allowInvalidCertificates = YES accepts without evaluation")
            return (.accept, "accepted-without-validation", "mode None with allowInvalidCertificates = YES")
        }
        let r = trace.consult(builder, anchors: .system, policy: policy)
        trace.step(
            "system trust", r.ok ? .passed : .failed,
            "\(Describe.policy(policy)) with system and --ca-file anchors: \(Describe.outcome(r))")
        return r.ok
            ? (.accept, "accepted", "system trust passes")
            : (
                .reject, "system-trust-failed",
                "the system trust evaluation (\(Describe.policy(policy))) fails: \(r.error ?? "does not verify")"
            )
    }

    /// Step 4: the system gate of the pinned modes; nil when it rejects, else the path it built (empty when
    /// the evaluation did not run).
    mutating func systemGate(_ builder: some TrustPathBuilding, _ policy: TrustPolicyChoice) -> [CertificateFacts]? {
        if !options.allowInvalidCertificates {
            let r = trace.consult(builder, anchors: .system, policy: policy)
            trace.step(
                "system trust", r.ok ? .passed : .failed,
                "\(Describe.policy(policy)) with system and --ca-file anchors: \(Describe.outcome(r))")
            return r.ok ? r.path : nil
        }
        if options.afVersion >= 4 {
            trace.step(
                "system trust", .skipped,
                "\(Describe.policy(policy)): skipped — allowInvalidCertificates = YES (AFNetworking 4 does not run it)")
            return []
        }
        let r = builder.build(anchors: .system, policy: policy)
        trace.step(
            "system trust", .ignored,
            "\(Describe.policy(policy)): \(Describe.outcome(r)), result ignored — allowInvalidCertificates = YES "
                + "(AFNetworking \(options.afVersion).x)"
        )
        return r.path
    }

    /// Step 5: Certificate mode.
    mutating func decideCertificate(
        _ builder: some TrustPathBuilding, _ policy: TrustPolicyChoice, systemPath: [CertificateFacts]
    ) -> Decision {
        guard !pins.isEmpty else {
            trace.step(
                "pinned-anchor evaluation", .failed,
                "no pinned certificates: the anchor set is empty, nothing can verify")
            noMatchReason = "no pinned certificates"
            return (.reject, "no-anchors", "there are no pinned certificates to anchor the evaluation")
        }
        let anchors = AnchorChoice.pinned(pins)
        let r = trace.consult(builder, anchors: anchors, policy: policy)
        trace.step(
            "pinned-anchor evaluation", r.ok ? .passed : .failed,
            "\(Describe.policy(policy)) with \(Describe.anchors(anchors)): \(Describe.outcome(r))")
        guard r.ok else {
            noMatchReason = "the path does not reach a pinned certificate under \(Describe.policy(policy))"
            return (
                .reject, "pinned-anchor-evaluation-failed",
                "the evaluation anchored on the pinned certificates fails: \(r.error ?? "does not verify")"
            )
        }
        // 2.6.x read the chain before the anchored evaluation (§1.4): the system path, not the pinned one.
        let legacy = options.afVersion <= 2
        let path = legacy ? (systemPath.isEmpty ? connection.served : systemPath) : r.path
        matchPath = path
        pinCompared = true
        for i in path.indices.reversed() {
            if let pin = pins.first(where: { Identity.sameCertificate($0, path[i]) }) {
                matches = [
                    PinMatch(
                        pin: PinIdentity.certificate(pin).label, kind: .certificate, position: i,
                        role: Describe.role(i, count: path.count), subject: path[i].subject)
                ]
                trace.step(
                    "pin match", .passed,
                    "walking "
                        + "\(legacy ? "the chain read before the anchored evaluation (2.6.x)" : "the anchored path") "
                        + "from the anchor: \(Describe.certificate(path[i])) at position \(i) is byte-identical to a "
                        + "pinned certificate"
                )
                return (.accept, "accepted", "a pinned certificate is on the path")
            }
        }
        noMatchReason =
            legacy
            ? "AFNetworking 2.6.x compares the chain read before the anchored evaluation, which lacks a pinned root "
                + "the server did not send"
            : "no certificate of the anchored path is byte-identical to a pinned certificate"
        trace.step("pin match", .failed, noMatchReason)
        return (.reject, "no-pin-in-path", noMatchReason)
    }

    /// Step 6: PublicKey mode (no anchored evaluation; the trust's verdict is not read).
    mutating func decidePublicKey(
        _ builder: some TrustPathBuilding, _ policy: TrustPolicyChoice, systemPath: [CertificateFacts]
    ) -> Decision {
        var path = systemPath
        if path.isEmpty {
            path = builder.build(anchors: .system, policy: policy).path
            trace.step(
                "path for key comparison", .ignored,
                "the trust is evaluated lazily when its chain is read (\(Describe.policy(policy)), system anchors); "
                    + "its verdict is not consulted"
            )
        }
        if path.isEmpty { path = connection.served }
        guard !pins.isEmpty else {
            trace.step("public-key match", .failed, "no pinned public keys")
            noMatchReason = "no pinned public keys"
            return (.reject, "no-pinned-keys", "there are no pinned public keys")
        }
        matchPath = path
        pinCompared = true
        for (i, cert) in path.enumerated() {
            for pin in pins where Identity.sameKey(pin, cert) {
                matches.append(
                    PinMatch(
                        pin: PinIdentity.publicKey(of: pin).label, kind: .publicKey, position: i,
                        role: Describe.role(i, count: path.count), subject: cert.subject))
            }
        }
        let how =
            "keys compared by SPKI equality (iOS compares SecKey type and raw key; for RSA and EC keys that is the "
            + "same test)"
        if matches.isEmpty {
            noMatchReason = "no key of the \(path.count)-certificate path equals a pinned key"
            trace.step("public-key match", .failed, "\(noMatchReason); \(how)")
            return (.reject, "no-pinned-key-in-path", noMatchReason)
        }
        let positions = matches.map { String($0.position) }.joined(separator: ", ")
        trace.step(
            "public-key match", .passed, "\(matches.count) pinned key match(es) at position \(positions); \(how)")
        return (.accept, "accepted", "a pinned public key is in the path")
    }
}
