import Foundation
import TLSModel

/// An Alamofire 5 `ServerTrustEvaluating` configuration (docs/pinning-rules.md §4), with Alamofire's defaults.
package indirect enum AlamofireEvaluator: Sendable, Hashable {
    /// `DefaultTrustEvaluator(validateHost:)`.
    case defaultTrust(validateHost: Bool = true)
    /// `RevocationTrustEvaluator(performDefaultValidation:validateHost:options:)`; `options` as written
    /// (`.any`, `.ocsp`, …), for the report only.
    case revocation(performDefaultValidation: Bool = true, validateHost: Bool = true, options: String = ".any")
    /// `PinnedCertificatesTrustEvaluator(certificates:acceptSelfSignedCertificates:performDefaultValidation:validateHost:)`.
    case pinnedCertificates(
        acceptSelfSignedCertificates: Bool = false, performDefaultValidation: Bool = true, validateHost: Bool = true)
    /// `PublicKeysTrustEvaluator(keys:performDefaultValidation:validateHost:)`.
    case publicKeys(performDefaultValidation: Bool = true, validateHost: Bool = true)
    /// `DisabledTrustEvaluator()`.
    case disabled
    /// `CompositeTrustEvaluator(evaluators:)`: each in order on the same trust; all must pass.
    case composite([AlamofireEvaluator])

    /// The evaluator as Swift source, for the report.
    package var description: String {
        func b(_ v: Bool) -> String { v ? "true" : "false" }
        switch self {
        case .defaultTrust(let host): return "DefaultTrustEvaluator(validateHost: \(b(host)))"
        case .revocation(let d, let h, let o):
            return "RevocationTrustEvaluator(performDefaultValidation: \(b(d)), validateHost: \(b(h)), options: \(o))"
        case .pinnedCertificates(let s, let d, let h):
            return
                "PinnedCertificatesTrustEvaluator(acceptSelfSignedCertificates: \(b(s)), performDefaultValidation: "
                + "\(b(d)), validateHost: \(b(h)))"
        case .publicKeys(let d, let h):
            return "PublicKeysTrustEvaluator(performDefaultValidation: \(b(d)), validateHost: \(b(h)))"
        case .disabled: return "DisabledTrustEvaluator()"
        case .composite(let list):
            return "CompositeTrustEvaluator(evaluators: [\(list.map(\.description).joined(separator: ", "))])"
        }
    }
}

/// Runs Alamofire 5 evaluators as `ServerTrustManager` would for a host that has one (docs/pinning-rules.md §4).
package enum AlamofireTrustEvaluation {
    /// Decides as Alamofire would.
    /// - Parameters:
    ///   - connection: Host, served chain, time.
    ///   - evaluator: The evaluator registered for the host.
    ///   - pinnedCertificates: The certificates given to the pinning evaluators (public keys are taken from them).
    ///   - builder: Builds and verifies paths for the served chain.
    /// - Returns: The verdict with its steps; `result` is `useCredential` or the `AFError` failure reason.
    package static func evaluate(
        _ connection: PinConnection, evaluator: AlamofireEvaluator, pinnedCertificates: [CertificateFacts],
        builder: some TrustPathBuilding
    ) -> PinEvaluation {
        var run = AlamofireRun(connection: connection, pins: pinnedCertificates)
        let failure = run.run(evaluator, builder)
        if let failure {
            run.trace.finding(
                RuleID.Pins.rejected, "Alamofire cancels \(connection.host): .\(failure.reason) — \(failure.detail)")
        }
        return PinEvaluation(
            library: .alamofire, host: connection.host, options: [PinOption("evaluator", evaluator.description)],
            verdict: failure == nil ? .accept : .reject, result: failure.map { ".\($0.reason)" } ?? "useCredential",
            steps: run.trace.steps, path: Identity.entries(run.matchPath, served: connection.served),
            matches: run.matches,
            pinMatched: run.compared ? !run.matches.isEmpty : nil,
            noMatchReason: run.matches.isEmpty ? run.noMatchReason : nil, trustChecks: run.trace.trustChecks(),
            findings: run.trace.findings, limitations: EvaluationTrace.limitations)
    }
}

private struct AlamofireRun {
    typealias Failure = (reason: String, detail: String)
    let connection: PinConnection
    let pins: [CertificateFacts]
    var trace = EvaluationTrace()
    /// Anchors set on the trust: they stay for later steps and later evaluators of a composite.
    var anchors = AnchorChoice.system
    var lastPath: [CertificateFacts]?
    var matchPath: [CertificateFacts] = []
    var matches: [PinMatch] = []
    var compared = false
    var noMatchReason = "no pin comparison ran"

    init(connection: PinConnection, pins: [CertificateFacts]) {
        self.connection = connection
        self.pins = pins
    }

    mutating func validate(_ builder: some TrustPathBuilding, host: Bool, enabled: Bool, flag: String) -> Failure? {
        let name = host ? "host validation" : "default validation"
        let policy = TrustPolicyChoice.ssl(host: host ? connection.host : nil)
        guard enabled else {
            trace.step(name, .skipped, "\(Describe.policy(policy)): skipped — \(flag) = false")
            return nil
        }
        let r = trace.consult(builder, anchors: anchors, policy: policy)
        lastPath = r.path
        trace.step(
            name, r.ok ? .passed : .failed,
            "\(Describe.policy(policy)) with \(Describe.anchors(anchors)): \(Describe.outcome(r))")
        return r.ok ? nil : (host ? "hostValidationFailed" : "defaultEvaluationFailed", r.error ?? "does not verify")
    }

    /// The chain the pin check reads: the last evaluation's path, or the one a lazy evaluation builds.
    mutating func chainForPins(_ builder: some TrustPathBuilding) -> [CertificateFacts] {
        if let lastPath, !lastPath.isEmpty { return lastPath }
        let r = builder.build(anchors: anchors, policy: .ssl(host: connection.host))
        trace.step(
            "chain for pin check", .ignored,
            "no validation ran: the chain comes from a lazy evaluation "
                + "(\(Describe.policy(.ssl(host: connection.host))), \(Describe.anchors(anchors))) whose verdict is "
                + "not consulted"
        )
        return r.path.isEmpty ? connection.served : r.path
    }

    mutating func run(_ evaluator: AlamofireEvaluator, _ builder: some TrustPathBuilding) -> Failure? {
        switch evaluator {
        case .disabled:
            trace.step("DisabledTrustEvaluator", .skipped, "no evaluation: every certificate is accepted")
            trace.finding(
                RuleID.Pins.alamofireDisabled,
                "DisabledTrustEvaluator for \(connection.host): any certificate, from any proxy, is accepted")
            return nil
        case .composite(let list):
            for item in list {
                if let failure = run(item, builder) { return failure }
            }
            return nil
        case .defaultTrust(let validateHost):
            return validate(builder, host: true, enabled: validateHost, flag: "validateHost")
                ?? validate(builder, host: false, enabled: true, flag: "performDefaultValidation")
        case .revocation(let performDefault, let validateHost, let options):
            if let failure = validate(builder, host: false, enabled: performDefault, flag: "performDefaultValidation")
                ?? validate(builder, host: true, enabled: validateHost, flag: "validateHost")
            {
                return failure
            }
            trace.revocationRequested = true
            trace.step(
                "revocation", .skipped,
                "SecPolicyCreateRevocation(\(options)): not checked — atscheck cannot fetch OCSP or CRL answers as "
                    + "the device would"
            )
            trace.finding(
                RuleID.Pins.revocationUnchecked,
                "\(connection.host): the revocation check (\(options)) of RevocationTrustEvaluator was not made")
            return nil
        case .pinnedCertificates(let acceptSelfSigned, let performDefault, let validateHost):
            guard !pins.isEmpty else {
                trace.step("pinned certificates", .failed, "no certificates: .noCertificatesFound")
                noMatchReason = "no pinned certificates"
                return ("noCertificatesFound", "no pinned certificates were loaded")
            }
            if acceptSelfSigned {
                anchors = .pinned(pins)
                trace.step(
                    "anchors", .passed,
                    "acceptSelfSignedCertificates = true: \(Describe.anchors(anchors)); system roots no longer count")
            } else {
                trace.step("anchors", .skipped, "acceptSelfSignedCertificates = false: system and --ca-file anchors")
            }
            if let failure = validate(builder, host: false, enabled: performDefault, flag: "performDefaultValidation")
                ?? validate(builder, host: true, enabled: validateHost, flag: "validateHost")
            {
                return failure
            }
            warnIfUnvalidated(performDefault, validateHost)
            return matchPins(builder, identities: pins.map(PinIdentity.certificate), reason: "certificatePinningFailed")
        case .publicKeys(let performDefault, let validateHost):
            guard !pins.isEmpty else {
                trace.step("pinned public keys", .failed, "no keys: .noPublicKeysFound")
                noMatchReason = "no pinned public keys"
                return ("noPublicKeysFound", "no public keys were loaded")
            }
            if let failure = validate(builder, host: false, enabled: performDefault, flag: "performDefaultValidation")
                ?? validate(builder, host: true, enabled: validateHost, flag: "validateHost")
            {
                return failure
            }
            warnIfUnvalidated(performDefault, validateHost)
            return matchPins(
                builder, identities: pins.map(PinIdentity.publicKey(of:)), reason: "publicKeyPinningFailed")
        }
    }

    mutating func warnIfUnvalidated(_ performDefault: Bool, _ validateHost: Bool) {
        guard !performDefault && !validateHost else { return }
        trace.finding(
            RuleID.Pins.alamofireValidationOff,
            "\(connection.host): performDefaultValidation and validateHost are both false: only the pin match counts "
                + "— expiry, hostname and chain are not checked"
        )
    }

    mutating func matchPins(_ builder: some TrustPathBuilding, identities: [PinIdentity], reason: String) -> Failure? {
        let path = chainForPins(builder)
        matchPath = path
        compared = true
        for (i, cert) in path.enumerated() {
            for pin in identities where pin.matches(cert) {
                matches.append(
                    PinMatch(
                        pin: pin.label, kind: pin.kind, position: i, role: Describe.role(i, count: path.count),
                        subject: cert.subject))
            }
        }
        // With the pins as the only anchors (acceptSelfSignedCertificates) a pinned root is not a store choice.
        let anchoredOnPins = if case .pinned = anchors { true } else { false }
        trace.findings += OutageWarnings.check(pins: identities, path: path, connection: connection)
            .filter { !anchoredOnPins || $0.rule != RuleID.Pins.rootOnly }
        let what =
            identities.first?.kind == .certificate
            ? "DER bytes (set intersection)" : "public keys (SPKI equality; iOS compares SecKey)"
        if matches.isEmpty {
            noMatchReason = "no certificate of the \(path.count)-certificate chain matches a pin by \(what)"
            trace.step("pin match", .failed, noMatchReason)
            return (reason, noMatchReason)
        }
        trace.step(
            "pin match", .passed,
            "\(matches.count) match(es) by \(what) at position "
                + "\(matches.map { String($0.position) }.joined(separator: ", "))"
        )
        return nil
    }
}
