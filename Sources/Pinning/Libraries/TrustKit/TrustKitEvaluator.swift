import Foundation
import TLSModel

/// TrustKit's version-dependent behaviour (docs/pinning-rules.md §3.5, §3.7).
package struct TrustKitOptions: Sendable, Hashable {
    /// Whether RSA-3072 keys can be hashed (TrustKit 3.0.5 and later; default true).
    package var rsa3072Supported: Bool

    /// Options; defaults are current TrustKit's.
    /// - Parameter rsa3072Supported: TrustKit 3.0.5 or later.
    package init(rsa3072Supported: Bool = true) {
        self.rsa3072Supported = rsa3072Supported
    }

    /// Why TrustKit cannot hash a certificate's key, or nil when it can (RSA 2048/4096, 3072 from 3.0.5,
    /// EC P-256/P-384).
    /// - Parameter certificate: The certificate.
    /// - Returns: A short reason, or nil.
    package func unsupportedKey(_ certificate: CertificateFacts) -> String? {
        switch certificate.keyType {
        case .rsa:
            let sizes = rsa3072Supported ? [2048, 3072, 4096] : [2048, 4096]
            return sizes.contains(certificate.keyBits) ? nil : "RSA \(certificate.keyBits)"
        case .ec:
            let curve =
                certificate.curve.map(Self.curveName)
                ?? (certificate.keyBits == 256
                    ? "P-256" : certificate.keyBits == 384 ? "P-384" : "EC \(certificate.keyBits)")
            return ["P-256", "P-384"].contains(curve) ? nil : curve
        default:
            return certificate.keyType.rawValue
        }
    }

    private static func curveName(_ name: String) -> String {
        switch name.lowercased() {
        case "prime256v1", "secp256r1", "p-256": return "P-256"
        case "secp384r1", "p-384": return "P-384"
        case "secp521r1", "p-521": return "P-521"
        default: return name
        }
    }
}

/// `TSKPinningValidator evaluateTrust:forHostname:` and the final decision (docs/pinning-rules.md §3.3–3.4).
package enum TrustKitEvaluator {
    /// Decides as TrustKit would on iOS.
    /// - Parameters:
    ///   - connection: Host, served chain, time.
    ///   - pinSet: The TrustKit configuration.
    ///   - options: Version-dependent behaviour.
    ///   - builder: Builds and verifies paths for the served chain.
    /// - Returns: The verdict with its steps; `result` is the `TSKTrustEvaluationResult` name (or
    ///   `DomainNotPinned`).
    package static func evaluate(
        _ connection: PinConnection, pinSet: PinSet, options: TrustKitOptions = TrustKitOptions(),
        builder: some TrustPathBuilding
    ) -> PinEvaluation {
        var trace = EvaluationTrace()
        let host = connection.host
        var path: [CertificateFacts] = []
        var matches: [PinMatch] = []
        var noMatch: String? = "no pin comparison ran"
        var compared = false
        var enforce = true
        var optionList = [PinOption("rsa3072Supported", Describe.yesNo(options.rsa3072Supported))]

        func finish(_ verdict: PinVerdict, _ result: String) -> PinEvaluation {
            if verdict == .reject {
                trace.finding(RuleID.Pins.rejected, "TrustKit blocks \(host): \(result)")
            }
            return PinEvaluation(
                library: .trustkit, host: host, options: optionList, verdict: verdict, result: result,
                steps: trace.steps,
                path: Identity.entries(path, served: connection.served), matches: matches,
                pinMatched: compared ? !matches.isEmpty : nil, noMatchReason: matches.isEmpty ? noMatch : nil,
                trustChecks: trace.trustChecks(), findings: trace.findings, limitations: EvaluationTrace.limitations)
        }

        guard !host.isEmpty else {
            trace.step("hostname", .failed, "no hostname: TrustKit blocks")
            return finish(.reject, "ErrorInvalidParameters")
        }
        switch TrustKitPolicyLookup.lookup(host: host, in: pinSet, now: connection.now) {
        case .notPinned(let reason, let expiredDomain):
            trace.step("policy lookup", .skipped, "DomainNotPinned — \(reason); the system's default handling decides")
            if let expiredDomain {
                trace.finding(
                    RuleID.Pins.trustKitExpired,
                    "\(expiredDomain): TSKExpirationDate \(pinSet.domains[expiredDomain]?.expirationDate ?? "") has "
                        + "passed: TrustKit no longer pins \(host)"
                )
            }
            trace.finding(RuleID.Pins.domainNotPinned, "TrustKit does not pin \(host): \(reason)")
            let r = trace.consult(builder, anchors: .system, policy: .ssl(host: host))
            trace.step(
                "default trust", r.ok ? .passed : .failed,
                "\(Describe.policy(.ssl(host: host))) with system and --ca-file anchors: \(Describe.outcome(r))")
            return finish(r.ok ? .accept : .reject, "DomainNotPinned")
        case .pinned(let domain, let entry, let viaParent):
            enforce = entry.enforce
            optionList =
                [
                    PinOption("domain", domain),
                    PinOption("includeSubdomains", Describe.yesNo(entry.includeSubdomains)),
                    PinOption("enforcePinning", Describe.yesNo(entry.enforce)),
                    PinOption("expirationDate", entry.expirationDate ?? "none"),
                    PinOption("pins", String(Set(entry.pins).count)),
                ] + optionList
            trace.step(
                "policy lookup", .passed,
                viaParent ? "\(host) inherits the policy of \(domain) (includeSubdomains)" : "exact entry \(domain)")
            trace.step(
                "expiration", .passed, entry.expirationDate.map { "policy valid until \($0)" } ?? "no expiration date")
            let pins = Set(entry.pins)
            let r = trace.consult(builder, anchors: .system, policy: .ssl(host: host))
            trace.step(
                "default trust", r.ok ? .passed : .failed,
                "\(Describe.policy(.ssl(host: host))) with system and --ca-file anchors (forced by TrustKit): "
                    + "\(Describe.outcome(r))"
            )
            guard r.ok else {
                noMatch = "the chain does not verify, so no pin was compared"
                path = r.path
                return finish(.reject, "FailedInvalidCertificateChain")
            }
            path = r.path
            compared = true
            trace.findings += OutageWarnings.check(
                pins: pins.sorted().map(PinIdentity.spki), path: path, connection: connection)
            for i in path.indices.reversed() {
                let cert = path[i]
                if let unsupported = options.unsupportedKey(cert) {
                    noMatch =
                        "TrustKit cannot hash the \(unsupported) key of \(Describe.certificate(cert)) at position "
                        + "\(i), reached before any match"
                    trace.step("pin walk", .failed, "root → leaf: \(noMatch!) — ErrorCouldNotGenerateSpkiHash")
                    trace.finding(
                        RuleID.Pins.trustKitUnsupportedKey,
                        "\(host): \(Describe.certificate(cert)) at position \(i) has a \(unsupported) key, which "
                            + "TrustKit cannot hash: it blocks even with enforcement off"
                    )
                    return finish(.reject, "ErrorCouldNotGenerateSpkiHash")
                }
                if pins.contains(cert.spkiSHA256) {
                    matches = [
                        PinMatch(
                            pin: cert.spkiSHA256, kind: .spkiSHA256, position: i,
                            role: Describe.role(i, count: path.count), subject: cert.subject)
                    ]
                    trace.step(
                        "pin walk", .passed,
                        "root → leaf: the SPKI SHA-256 of \(Describe.certificate(cert)) at position \(i) is pinned")
                    trace.step("decision", .passed, "Success → allow")
                    return finish(.accept, "Success")
                }
            }
            noMatch = "no SPKI SHA-256 of the \(path.count)-certificate path is among the \(pins.count) pins"
            trace.step("pin walk", .failed, "root → leaf: \(noMatch!) — FailedNoMatchingPin")
            if enforce {
                trace.step("decision", .failed, "FailedNoMatchingPin with enforcePinning = YES → block")
                return finish(.reject, "FailedNoMatchingPin")
            }
            trace.step(
                "decision", .passed, "FailedNoMatchingPin with enforcePinning = NO → allow, and report the failure")
            trace.finding(
                RuleID.Pins.notEnforced, "TrustKit allows \(host) only because enforcePinning = NO: \(noMatch!)")
            return finish(.accept, "FailedNoMatchingPin")
        }
    }
}
