import TLSModel

/// The words every report uses for the Apple clients simulated with their own ClientHellos (issue 36): one era's
/// line (`iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure`), its parts for the
/// formats that lay them out in columns, the endpoint's quantum-secure readiness line and the summary's count.
///
/// One copy of the wording: the text, HTML, SARIF, Markdown, JUnit and GitHub reports all call these, so an era reads
/// the same in each. The text is plain and unescaped; each format escapes it its own way. A `paint` closure receives
/// every piece with its ``Tone``, so the text report can escape and colour piece by piece (escaping after colouring
/// would escape the colours).
package enum SimulationWording {
    /// How a piece of a line is meant to look: the text report colours by it, the other formats ignore it.
    package enum Tone: Sendable {
        case plain, good, bad, caution, dim
    }

    /// The heading over an endpoint's simulated clients.
    package static let title = "Apple clients (each simulated with its own ClientHello)"

    /// `iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure`, or
    /// `iOS 26 (URLSession): fails — the connection is reset after the first segment of the ClientHello`.
    /// - Parameters:
    ///   - simulation: one simulated client.
    ///   - paint: called on every piece of the line with its tone; the identity by default.
    /// - Returns: one line without a newline.
    package static func line(
        _ simulation: ClientSimulation, paint: (Tone, String) -> String = { $1 }
    ) -> String {
        paint(.plain, simulation.client + ": ") + outcome(simulation, paint: paint)
    }

    /// The line without the client: what was negotiated, or how the client fails, and whether its profile is
    /// inferred from sources rather than captured.
    package static func outcome(
        _ simulation: ClientSimulation, paint: (Tone, String) -> String = { $1 }
    ) -> String {
        var text: String
        switch simulation.outcome {
        case .negotiated:
            text = paint(.plain, parameters(simulation).joined(separator: ", "))
            if let secure = quantumSecure(simulation) {
                text +=
                    paint(.plain, " — ")
                    + (secure ? paint(.good, "quantum-secure") : paint(.plain, "not quantum-secure"))
            }
        case .notRun:
            text = paint(.caution, outcomeWord(simulation)) + paint(.plain, " — " + reason(simulation))
        default:
            text = paint(.bad, outcomeWord(simulation)) + paint(.plain, " — " + reason(simulation))
        }
        if inferred(simulation) { text += paint(.plain, " ") + paint(.dim, inferredNote) }
        return text
    }

    /// One word for the outcome, for a column: `connects`, `fails` or `not simulated`.
    package static func outcomeWord(_ simulation: ClientSimulation) -> String {
        switch simulation.outcome {
        case .negotiated: return "connects"
        case .notRun: return "not simulated"
        default: return "fails"
        }
    }

    /// What was negotiated, in the order the line names it: version (`TLS 1.3`), suite, group, signature scheme;
    /// only those known.
    package static func parameters(_ simulation: ClientSimulation) -> [String] {
        [
            simulation.version.map(versionLabel), simulation.suite?.name, simulation.group?.name,
            simulation.signatureScheme,
        ].compactMap { $0 }
    }

    /// Whether the line calls the client quantum-secure (true) or not (false): an iOS 26 client that connected says
    /// either; an older one says nothing (nil), since it never offered the hybrid.
    package static func quantumSecure(_ simulation: ClientSimulation) -> Bool? {
        guard simulation.connects, let secure = simulation.quantumSecure else { return nil }
        if secure { return true }
        return simulation.osVersion.hasPrefix("26") ? false : nil
    }

    /// Why the client fails or was not simulated: the prober's own line, else a phrase for the outcome.
    package static func reason(_ simulation: ClientSimulation) -> String {
        if let failure = simulation.failure { return failure }
        return simulation.outcome == .notRun ? "the simulation could not run" : failureWords(simulation.outcome)
    }

    /// `(profile inferred from sources)`: said after a client whose ClientHello is not an exact capture.
    package static let inferredNote = "(profile inferred from sources)"

    /// Whether the client's profile is inferred from sources rather than captured.
    package static func inferred(_ simulation: ClientSimulation) -> Bool { simulation.evidence == "inferred" }

    /// `TLS 1.3` for `TLSv1.3`, as Apple's tools name versions; other names as they are.
    package static func versionLabel(_ version: TLSVersion) -> String {
        version.name.hasPrefix("TLSv") ? "TLS " + version.name.dropFirst(4) : version.name
    }

    /// Why a simulated client fails, when the prober gave no line of its own.
    package static func failureWords(_ outcome: ClientSimulation.Outcome) -> String {
        switch outcome {
        case .refused: return "the server refuses the ClientHello"
        case .dropped: return "the connection is closed without an answer"
        case .timedOut: return "no answer before the timeout"
        case .broken: return "the server's answer is not one the client accepts"
        case .negotiated, .notRun: return outcome.rawValue
        }
    }

    /// `Quantum-secure (iOS 26): yes — X25519MLKEM768 negotiated`, `no — …` or `unknown — …`
    /// (``ServerProfile/quantumSecure``).
    /// - Parameters:
    ///   - profile: the endpoint's profile.
    ///   - paint: called on every piece with its tone.
    package static func readiness(_ profile: ServerProfile, paint: (Tone, String) -> String = { $1 }) -> String {
        let label = paint(.plain, "Quantum-secure (iOS 26): ")
        switch profile.quantumSecure {
        case true?:
            return label + paint(.good, "yes") + paint(.plain, " — X25519MLKEM768 negotiated")
        case false?:
            let deciding = profile.quantumDecidingSimulation
            return label + paint(.caution, "no")
                + paint(
                    .plain,
                    " — \(deciding?.client ?? "iOS 26") negotiates \(deciding?.keyExchangeLabel ?? "a classical group") "
                        + "(ATS does not require X25519MLKEM768)")
        case nil:
            return label + paint(.caution, "unknown")
                + paint(.plain, " — " + (profile.quantumUnknownReason ?? "not judged"))
        }
    }

    /// The summary's readiness count: `quantum-secure: 3 of 14 endpoints (2 unknown)`; nil when no endpoint's
    /// clients were simulated.
    package static func summaryCount(_ summary: ReportSummary) -> String? {
        guard let judged = summary.quantumJudged, let secure = summary.quantumSecure else { return nil }
        let unknown = summary.quantumUnknown ?? 0
        return "quantum-secure: \(secure) of \(judged) endpoint\(judged == 1 ? "" : "s")"
            + (unknown > 0 ? " (\(unknown) unknown)" : "")
    }
}
