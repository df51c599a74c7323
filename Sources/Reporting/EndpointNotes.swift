import TLSModel

/// What a scan learnt about an endpoint that is no problem: notes of the `info.*` rules (``RuleID/Info``): whether TLS
/// 1.3 accepts a post-quantum hybrid, what each simulated Apple client negotiates, and whether iOS 26's connections
/// are quantum-secure.
///
/// Kept apart from ``ReportIssues``, the problems every CI format counts: a note here is not counted in any summary,
/// never fails a run (`--fail-on`), and is shown only where a format carries information beside problems — SARIF,
/// as `note` results after the problems. JUnit, Code Climate, GitHub annotations and the Markdown comment list
/// problems only (JUnit, GitHub and Markdown show the simulated clients beside them, not as problems); the text, JSON
/// and HTML reports show the facts themselves (the groups of each version, the clients).
package enum EndpointNotes {
    /// The notes of a report, endpoint by endpoint.
    /// - Parameters:
    ///   - report: the report.
    ///   - endpointsFile: the file an endpoint without a `source` is placed in.
    /// - Returns: per endpoint, in endpoint order: the post-quantum note of a completed endpoint whose TLS 1.3 groups
    ///   were enumerated, then the Apple-clients note and the quantum-secure note of one whose Apple clients were
    ///   simulated.
    package static func of(_ report: ScanReport, endpointsFile: String? = nil) -> [ReportIssue] {
        report.endpoints.enumerated().flatMap { index, endpoint in
            [
                postQuantum(endpoint, index: index, endpointsFile: endpointsFile),
                appleClients(endpoint, index: index, endpointsFile: endpointsFile),
                quantumSecure(endpoint, index: index, endpointsFile: endpointsFile),
            ].compactMap { $0 }
        }
    }

    /// One note listing every simulated Apple client of the endpoint, in ``SimulationWording``'s words
    /// (`pq.example.com:443: Apple clients, each simulated with its own ClientHello: iOS 26 (URLSession): TLS 1.3, …;
    /// iOS 18 (URLSession): …`), the clients themselves as ``ReportIssue/simulations``; nil when none was simulated.
    ///
    /// One note per endpoint, not one per client: a code-scanning tool keeps each result as an alert, and six alerts
    /// per endpoint that say "connects" would bury the findings. A client that fails the judged release's verdict
    /// is already an error result of its own rule (`ats.tls.simulated-handshake-failed`).
    static func appleClients(_ endpoint: EndpointResult, index: Int, endpointsFile: String?) -> ReportIssue? {
        let profile = endpoint.profile
        guard profile.status == .completed, let simulations = profile.simulations, !simulations.isEmpty else {
            return nil
        }
        let lines = simulations.map { SimulationWording.line($0) }.joined(separator: "; ")
        var note = ReportIssue(
            rule: RuleID.Info.appleClients, severity: .note,
            message: "\(profile.target): Apple clients, each simulated with its own ClientHello: \(lines)",
            file: endpoint.source?.file ?? endpointsFile, line: endpoint.source?.line.flatMap { $0 > 0 ? $0 : nil },
            about: .target(profile.target), endpoint: index, ownedByEndpoint: true)
        note.simulations = simulations
        return note
    }

    /// Whether the endpoint's iOS 26 connections negotiate X25519MLKEM768 (``ServerProfile/quantumSecure``); nil when
    /// its Apple clients were not simulated (an endpoint not scanned, a scan that skipped them, an older profile).
    static func quantumSecure(_ endpoint: EndpointResult, index: Int, endpointsFile: String?) -> ReportIssue? {
        let profile = endpoint.profile
        guard profile.status == .completed, profile.simulations != nil else { return nil }
        let target = profile.target
        let message: String
        switch profile.quantumSecure {
        case true?:
            let client = profile.quantumDecidingSimulation?.client ?? "iOS 26"
            message = "\(target): iOS 26 connections are quantum-secure: \(client) negotiates X25519MLKEM768"
        case false?:
            let deciding = profile.quantumDecidingSimulation
            message =
                "\(target): iOS 26 connections are not quantum-secure: \(deciding?.client ?? "iOS 26") negotiates "
                + "\(deciding?.keyExchangeLabel ?? "a classical group"), not X25519MLKEM768 (ATS does not require it)"
        case nil:
            message =
                "\(target): whether iOS 26 connections are quantum-secure is unknown: "
                + (profile.quantumUnknownReason ?? "not judged")
        }
        return ReportIssue(
            rule: RuleID.Info.quantumSecure, severity: .note, message: message,
            file: endpoint.source?.file ?? endpointsFile, line: endpoint.source?.line.flatMap { $0 > 0 ? $0 : nil },
            about: .target(target), endpoint: index, ownedByEndpoint: true)
    }

    /// Whether the endpoint accepts a post-quantum hybrid in TLS 1.3; nil when its TLS 1.3 groups were not
    /// enumerated (an ats-only scan, TLS 1.3 not supported, an endpoint not scanned, an older profile).
    static func postQuantum(_ endpoint: EndpointResult, index: Int, endpointsFile: String?) -> ReportIssue? {
        let profile = endpoint.profile
        guard profile.status == .completed, let tls13 = profile.result(for: .tls1_3), tls13.groups != nil else {
            return nil
        }
        let target = profile.target
        let message: String
        switch profile.acceptsPostQuantum {
        case true?:
            let names = profile.postQuantumGroups.map(\.name)
            message =
                names.contains(NamedGroup.X25519MLKEM768.ianaName)
                ? "\(target) accepts the post-quantum hybrid X25519MLKEM768 in TLS 1.3"
                : "\(target) accepts post-quantum key exchange in TLS 1.3 (\(names.joined(separator: ", "))) but not "
                    + "X25519MLKEM768, the hybrid iOS 26 offers first"
        case false?:
            message =
                "\(target) accepts no post-quantum hybrid (X25519MLKEM768) in TLS 1.3: "
                + "Apple clients that offer it fall back to a classical group"
        case nil:
            message =
                "\(target): whether TLS 1.3 accepts a post-quantum hybrid (X25519MLKEM768) is unknown: "
                + "the group enumeration stopped early"
        }
        let line = endpoint.source?.line.flatMap { $0 > 0 ? $0 : nil }
        return ReportIssue(
            rule: RuleID.Info.postQuantum, severity: .note, message: message,
            file: endpoint.source?.file ?? endpointsFile, line: line, about: .target(target), endpoint: index,
            ownedByEndpoint: true)
    }
}
