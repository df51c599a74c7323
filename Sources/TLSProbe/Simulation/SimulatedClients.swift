import TLSHello
import TLSModel

/// Which Apple clients a scan simulates beside its enumeration (``ClientSimulator``; issue 36), per scope: one
/// connection each (plus the retries of the drops it meets).
///
/// A full scan simulates every era (``AppleSimulatedClient/simulated``). An ats-only scan keeps to its
/// ``ATSOnlyProbe/budget`` and simulates nothing, unless the run asks whether its endpoints are quantum-secure
/// (`--require-pq`): that needs the newest client's own hello, so it simulates that one client, one connection
/// beyond the budget.
package struct SimulatedClients: Sendable, Equatable {
    /// The clients of a full scan, newest first.
    package var full: [AppleSimulatedClient]
    /// The clients of an ats-only scan, newest first; empty: the profile lists the newest as `not run`, with why.
    package var atsOnly: [AppleSimulatedClient]

    /// - Parameters:
    ///   - full: the clients of a full scan.
    ///   - atsOnly: the clients of an ats-only scan (each a connection beyond its budget).
    package init(full: [AppleSimulatedClient], atsOnly: [AppleSimulatedClient] = []) {
        self.full = full
        self.atsOnly = atsOnly
    }

    /// Every era in a full scan, nothing in an ats-only one: what the CLI simulates by default.
    package static var everyEra: SimulatedClients { SimulatedClients(full: AppleSimulatedClient.simulated) }

    /// ``everyEra``, and in an ats-only scan the newest client alone (`--require-pq`), so that quantum-secure
    /// readiness is answered there too for one connection more.
    package static var everyEraAndNewestInATSOnly: SimulatedClients {
        SimulatedClients(full: AppleSimulatedClient.simulated, atsOnly: [AppleSimulatedClient.newest])
    }

    /// These clients with ``AppleSimulatedClient/newest`` replaced by `client` wherever it is simulated:
    /// `diagnose --tls-diagnostics --older-sdk` simulates iOS 26 as an app built with an older SDK
    /// (``AppleSimulatedClient/newestOlderSDK``), one connection as before.
    package func replacingNewest(with client: AppleSimulatedClient) -> SimulatedClients {
        func replaced(_ list: [AppleSimulatedClient]) -> [AppleSimulatedClient] {
            list.map { $0 == AppleSimulatedClient.newest ? client : $0 }
        }
        return SimulatedClients(full: replaced(full), atsOnly: replaced(atsOnly))
    }

    /// The clients a scan of `scope` simulates.
    package func clients(for scope: ProbeScope) -> [AppleSimulatedClient] {
        scope == .atsOnly ? atsOnly : full
    }

    /// The profile's ``ServerProfile/simulations`` for a scan of `scope` that ran `simulated`: those, or for an
    /// ats-only scan that simulated nothing, the newest client as not run (``ClientSimulator/skippedInATSOnly``).
    func recorded(_ simulated: [ClientSimulation], scope: ProbeScope) -> [ClientSimulation] {
        scope == .atsOnly && atsOnly.isEmpty ? ClientSimulator.skippedInATSOnly : simulated
    }
}
