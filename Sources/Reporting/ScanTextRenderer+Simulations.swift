import TLSModel

extension ScanTextRenderer {
    /// The Apple clients simulated with their own ClientHellos (issue 36), one line per client, newest first; then
    /// the quantum-secure readiness and the two-segment ClientHello check. Empty when no client was simulated.
    /// - Parameter p: the endpoint's profile.
    /// - Returns: lines ending in a newline, under a bold title.
    func simulationSection(_ p: ServerProfile) -> String {
        guard let simulations = p.simulations else { return "" }
        var out = "  " + style.bold(SimulationWording.title) + "\n"
        if simulations.isEmpty { out += "    " + style.yellow("none simulated") + "\n" }
        for simulation in simulations { out += "    " + simulationLine(simulation) + "\n" }
        out += "  " + quantumLine(p) + "\n"
        return out + "\n"
    }

    /// One client's line in ``SimulationWording``'s words, escaped and coloured.
    func simulationLine(_ simulation: ClientSimulation) -> String {
        SimulationWording.line(simulation, paint: paint)
    }

    /// The readiness line in ``SimulationWording``'s words (``ServerProfile/quantumSecure``).
    func quantumLine(_ p: ServerProfile) -> String {
        SimulationWording.readiness(p, paint: paint)
    }

    /// A piece of a simulation line: escaped (it may quote the server), then coloured by its tone.
    func paint(_ tone: SimulationWording.Tone, _ text: String) -> String {
        let text = safe(text)
        switch tone {
        case .plain: return text
        case .good: return style.green(text)
        case .bad: return style.red(text)
        case .caution: return style.yellow(text)
        case .dim: return style.dim(text)
        }
    }
}
