/// The words every report and `--require-pq` use for ``ServerProfile/quantumSecure`` (issue 36), kept in one place so
/// the text, JSON, SARIF and HTML reports and the failure rule say the same thing.
extension ServerProfile {
    /// The simulations of the newest era (iOS 26), in the order they were run.
    package var newestEraSimulations: [ClientSimulation] {
        (simulations ?? []).filter { $0.osVersion.hasPrefix("26") }
    }

    /// The iOS 26 simulation that decides ``quantumSecure``: the first that connected without a post-quantum
    /// group when there is one (it makes the endpoint not quantum-secure), else the first that connected; nil when
    /// none connected.
    package var quantumDecidingSimulation: ClientSimulation? {
        let connected = newestEraSimulations.filter(\.connects)
        return connected.first { $0.quantumSecure != true } ?? connected.first
    }

    /// Why ``quantumSecure`` is nil, as one phrase (`iOS 26 did not connect (…)`); nil when it is known.
    package var quantumUnknownReason: String? {
        guard quantumSecure == nil else { return nil }
        guard simulations != nil else {
            return "Apple clients were not simulated" + (scope == "ats-only" ? " (an ats-only scan)" : "")
        }
        guard let first = newestEraSimulations.first else { return "iOS 26 was not simulated" }
        return "iOS 26 did not connect (\(first.failure ?? first.outcome.rawValue))"
    }
}
