import TLSModel

extension ScanTextRenderer {
    /// The Apple clients simulated with their own ClientHellos (issue 36), one line per client, newest first; then
    /// the quantum-secure readiness and the two-segment ClientHello check. Empty when no client was simulated.
    /// - Parameter p: the endpoint's profile.
    /// - Returns: lines ending in a newline, under a bold title.
    func simulationSection(_ p: ServerProfile) -> String {
        guard let simulations = p.simulations else { return "" }
        var out = "  " + style.bold("Apple clients (each simulated with its own ClientHello)") + "\n"
        if simulations.isEmpty { out += "    " + style.yellow("none simulated") + "\n" }
        for simulation in simulations { out += "    " + simulationLine(simulation) + "\n" }
        out += "  " + quantumLine(p) + "\n"
        return out + "\n"
    }

    /// `iOS 26 (URLSession): TLS 1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure`, or
    /// `iOS 26 (URLSession): fails — the connection is reset after the first segment of the ClientHello`; a profile
    /// inferred from sources rather than captured says so.
    func simulationLine(_ simulation: ClientSimulation) -> String {
        var line = safe(simulation.client) + ": "
        switch simulation.outcome {
        case .negotiated:
            let parts = [
                simulation.version.map(Self.versionLabel), simulation.suite?.name, simulation.group?.name,
                simulation.signatureScheme.map(safe),
            ]
            line += parts.compactMap { $0 }.joined(separator: ", ")
            if simulation.quantumSecure == true {
                line += " — " + style.green("quantum-secure")
            } else if simulation.quantumSecure == false, simulation.osVersion.hasPrefix("26") {
                line += " — not quantum-secure"
            }
        case .notRun:
            line += style.yellow("not simulated") + " — " + safe(simulation.failure ?? "the simulation could not run")
        default:
            line += style.red("fails") + " — " + safe(simulation.failure ?? Self.failureWords(simulation.outcome))
        }
        if simulation.evidence == "inferred" { line += " " + style.dim("(profile inferred from sources)") }
        return line
    }

    /// `Quantum-secure (iOS 26): yes — …`, `no — …` or `unknown — …` (``ServerProfile/quantumSecure``).
    func quantumLine(_ p: ServerProfile) -> String {
        let label = "Quantum-secure (iOS 26): "
        switch p.quantumSecure {
        case true?:
            return label + style.green("yes") + " — X25519MLKEM768 negotiated"
        case false?:
            let deciding = p.quantumDecidingSimulation
            return label + style.yellow("no") + " — \(safe(deciding?.client ?? "iOS 26")) negotiates "
                + "\(deciding?.keyExchangeLabel ?? "a classical group") (ATS does not require X25519MLKEM768)"
        case nil:
            return label + style.yellow("unknown") + " — " + safe(p.quantumUnknownReason ?? "not judged")
        }
    }

    /// `TLS 1.3` for `TLSv1.3`, as Apple's tools name versions; other names as they are.
    static func versionLabel(_ version: TLSVersion) -> String {
        version.name.hasPrefix("TLSv") ? "TLS " + version.name.dropFirst(4) : version.name
    }

    /// Why a simulated client fails, when the prober gave no line of its own.
    static func failureWords(_ outcome: ClientSimulation.Outcome) -> String {
        switch outcome {
        case .refused: return "the server refuses the ClientHello"
        case .dropped: return "the connection is closed without an answer"
        case .timedOut: return "no answer before the timeout"
        case .broken: return "the server's answer is not one the client accepts"
        case .negotiated, .notRun: return outcome.rawValue
        }
    }

    /// The summary's readiness count: `quantum-secure: 3 of 14 endpoints (2 unknown)`; nil when no endpoint's
    /// clients were simulated.
    static func quantumSummary(_ summary: ReportSummary) -> String? {
        guard let judged = summary.quantumJudged, let secure = summary.quantumSecure else { return nil }
        let unknown = summary.quantumUnknown ?? 0
        return "quantum-secure: \(secure) of \(judged) endpoint\(judged == 1 ? "" : "s")"
            + (unknown > 0 ? " (\(unknown) unknown)" : "")
    }
}
