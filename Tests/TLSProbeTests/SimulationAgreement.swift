import TLSHello
import TLSModel

@testable import TLSProbe

/// Whether a scan's client simulations agree with what its enumeration predicts for each client (issue 36): a
/// client connects iff the enumeration says it and the server share a version and a suite (and in TLS 1.3 a group),
/// with that version, and with a server order (or the client's) the suite that order picks from the client's offer.
enum SimulationAgreement {
    /// One client whose simulation and prediction differ.
    struct Disagreement: CustomStringConvertible {
        var client: String
        var detail: String
        var description: String { "\(client): \(detail)" }
    }

    /// Every disagreement of `profile`; a simulation that did not run, or a prediction the enumeration cannot make,
    /// is left out (``compared(_:)`` counts those that were compared).
    static func disagreements(_ profile: ServerProfile) -> [Disagreement] {
        compare(profile).compactMap { $0.1 }
    }

    /// How many simulations were compared.
    static func compared(_ profile: ServerProfile) -> Int { compare(profile).count }

    private static func compare(_ profile: ServerProfile) -> [(String, Disagreement?)] {
        (profile.simulations ?? []).compactMap { simulation in
            guard simulation.outcome != .notRun,
                let client = AppleSimulatedClient.eras.first(where: { $0.profile.name == simulation.profile })
            else { return nil }
            let prediction = EnumerationPrediction.predict(client, from: profile)
            let said = describe(simulation)
            switch prediction {
            case .unknown:
                return nil
            case .fails(let why):
                return (
                    simulation.client,
                    simulation.connects
                        ? Disagreement(
                            client: simulation.client, detail: "simulated \(said), enumeration says it fails: \(why)")
                        : nil
                )
            case .connects(let version, let suite):
                guard simulation.connects, simulation.version == version,
                    suite == nil || simulation.suite?.suite == suite
                else {
                    return (
                        simulation.client,
                        Disagreement(
                            client: simulation.client,
                            detail:
                                "simulated \(said), enumeration predicts \(version) \(suite?.ianaName ?? "(any suite)")"
                        )
                    )
                }
                return (simulation.client, nil)
            }
        }
    }

    static func describe(_ simulation: ClientSimulation) -> String {
        guard simulation.connects else { return "\(simulation.outcome.rawValue) (\(simulation.failure ?? ""))" }
        return
            "\(simulation.version?.description ?? "?") \(simulation.suite?.name ?? "?") \(simulation.group?.name ?? "")"
    }
}
