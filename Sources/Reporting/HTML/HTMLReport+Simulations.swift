import TLSModel

extension HTMLReport {
    /// Whether the matrix has the Apple-clients and quantum-secure columns: some endpoint's clients were simulated.
    func showsSimulations(_ matrix: Matrix) -> Bool {
        matrix.rows.contains { $0.result?.profile.simulations != nil }
    }

    /// The Apple clients cell of a row: one line per simulated client, newest first, as the text report words it;
    /// a dash when none was simulated.
    func simulationsCell(_ result: EndpointResult?) -> String {
        guard let simulations = result?.profile.simulations, !simulations.isEmpty else {
            return "<td class=\"simulations dim\">—</td>"
        }
        let lines = simulations.map { simulation -> String in
            // The client in grey, the rest in the words of every report (``SimulationWording``).
            "<span class=\"dim\">\(e(simulation.client))</span> \(e(SimulationWording.outcome(simulation)))"
        }
        return "<td class=\"simulations\">" + lines.joined(separator: "<br>\n") + "</td>"
    }

    /// The quantum-secure cell of a row (``ServerProfile/quantumSecure``): a chip saying yes, no or unknown, then
    /// the group iOS 26 negotiates or why it is unknown; a dash when no client was simulated.
    func quantumCell(_ result: EndpointResult?) -> String {
        guard let profile = result?.profile, profile.simulations != nil, profile.status == .completed else {
            return "<td class=\"quantum dim\">—</td>"
        }
        let group = profile.quantumDecidingSimulation?.group?.name ?? ""
        switch profile.quantumSecure {
        case true?:
            return "<td class=\"quantum\"><span class=\"chip s-pass\"><span class=\"sym\">⚛</span> yes</span> "
                + code(group) + "</td>"
        case false?:
            // A symbol beside each word, as on every coloured mark: colour is never the only sign.
            return "<td class=\"quantum\"><span class=\"chip s-warn\"><span class=\"sym\">!</span> no</span> "
                + (group.isEmpty ? "" : code(group) + " ") + "<span class=\"dim\">(not required by ATS)</span></td>"
        case nil:
            return "<td class=\"quantum\"><span class=\"chip s-unknown\"><span class=\"sym\">?</span> unknown</span> "
                + "<span class=\"dim\">\(e(profile.quantumUnknownReason ?? ""))</span></td>"
        }
    }
}
