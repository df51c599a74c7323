import TLSModel

extension RuleID {
    /// Ids of requirements beyond ATS that a run opts into (`required.*`): a failure only when the option asks for
    /// it, never part of the ATS verdict.
    package enum Required: RuleNamespace {
        package static let family = RuleFamily.required
        /// `--require-pq`: the endpoint's iOS 26 connections do not negotiate a post-quantum hybrid.
        package static let quantumSecure: RuleID = "required.quantum-secure"
    }
}

extension RuleRegistry {
    /// Requirements a run opts into (`required.*`).
    package static let requirements = RuleRegistry(
        "required",
        entries: [
            RuleDescriptor(
                RuleID.Required.quantumSecure, .required, .error,
                title: "With --require-pq: the endpoint's iOS 26 connections do not negotiate X25519MLKEM768.",
                help: """
                    Only with --require-pq (scan, audit, app), for teams that want every connection protected \
                    against traffic recorded now and decrypted by a quantum computer later. The endpoint's Apple \
                    clients are simulated with their own ClientHellos; iOS 26 offers X25519MLKEM768 first with a key \
                    share (Apple support article 122756). An error when a simulated iOS 26 client connects with a \
                    classical group (exit 1); a note, not a failure, when it is unknown: iOS 26 did not connect (its \
                    own failure is reported apart) or was not simulated (a saved profile without simulations). An \
                    ats-only scan (the audit and app default) simulates iOS 26 alone for it, one connection beyond \
                    its six handshakes. ATS does not require it: without --require-pq the same fact is the note info.tls.quantum-secure. To pass, accept \
                    X25519MLKEM768 (OpenSSL 3.5, BoringSSL, Go 1.24, rustls) and prefer it over the classical groups.
                    """)
        ])
}

/// `--require-pq`: a ``RuleID/Required/quantumSecure`` error for each endpoint whose iOS 26 connections negotiate a
/// classical key exchange (``ServerProfile/quantumSecure`` false), and a note where that is unknown.
///
/// Apple does not require post-quantum key exchange, so this is never an ATS violation: it is a finding of its own,
/// located at the endpoint's line in its list (when it came from one), which fails the run as any error-level finding
/// does. An endpoint not scanned, a cleartext one and a chain judged from a file get nothing: there is no TLS
/// connection to judge (the first is reported as not scanned already).
package enum QuantumSecureRequirement {
    /// The findings for the endpoints of a report.
    /// - Parameter endpoints: judged endpoints.
    /// - Returns: an error per endpoint that is not quantum-secure, a note per endpoint where it is unknown, in
    ///   endpoint order.
    package static func findings(for endpoints: [EndpointResult]) -> [Finding] {
        endpoints.compactMap(finding)
    }

    /// The finding for one endpoint, or nil when it is quantum-secure or has no TLS connection to judge.
    static func finding(_ endpoint: EndpointResult) -> Finding? {
        let profile = endpoint.profile
        guard profile.status == .completed, profile.effectiveScheme == "https", !profile.judgesCertificateOnly else {
            return nil
        }
        let target = profile.target
        let severity: Finding.Severity
        let message: String
        switch profile.quantumSecure {
        case true?:
            return nil
        case false?:
            let classical = profile.quantumDecidingSimulation
            severity = .error
            message =
                "\(target): iOS 26 connections are not quantum-secure: \(classical?.client ?? "iOS 26") negotiates "
                + "\(classical?.keyExchangeLabel ?? "a classical group"), not X25519MLKEM768 (--require-pq)"
        case nil:
            severity = .note
            message =
                "\(target): whether iOS 26 connections are quantum-secure is unknown: "
                + "\(profile.quantumUnknownReason ?? "not judged"); not counted as a failure (--require-pq)"
        }
        return Finding(
            rule: RuleID.Required.quantumSecure, severity: severity, message: message, file: endpoint.source?.file,
            line: endpoint.source?.line)
    }
}

extension ScanReport {
    /// The report with the `--require-pq` findings added (``QuantumSecureRequirement``), when `required`.
    /// - Parameter required: whether `--require-pq` was given.
    package func addingQuantumRequirement(_ required: Bool) -> ScanReport {
        guard required else { return self }
        var copy = self
        copy.findings += QuantumSecureRequirement.findings(for: endpoints)
        return copy
    }
}
