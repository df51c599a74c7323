import Foundation
import TLSHello
import TLSModel

/// Simulates Apple clients against one endpoint (issue 36; docs/architecture.md#apple-client-simulation): one
/// connection per client, carrying that client's own ClientHello (TLSHello's Apple profiles), read as the client
/// reads the answer (``SimulatedHelloExchange``). The clients run beside the enumeration, each a step of the
/// endpoint's session: within the per-host cap, on its ledger, with its retries of drops and its reading of a
/// server that refuses by closing (``EndpointSession/step(_:ready:permit:)``), so a simulation costs one connection
/// per client plus the retries of the drops it meets.
struct ClientSimulator {
    let session: EndpointSession

    /// What an ats-only profile says of the simulation it did not run: the newest client, `not run`, and why.
    static var skippedInATSOnly: [ClientSimulation] {
        let client = AppleSimulatedClient.newest
        return [
            ClientSimulation(
                client: client.name, profile: client.profile.name, osVersion: client.osVersion,
                evidence: client.evidence, outcome: .notRun,
                failure:
                    "not simulated: an ats-only scan keeps to its \(ATSOnlyProbe.budget) handshakes; "
                    + "a full scan simulates every era, and --require-pq the newest")
        ]
    }

    /// Simulates `clients` side by side; the results in the clients' order (newest first).
    func run(_ clients: [AppleSimulatedClient]) async -> [ClientSimulation] {
        let session = self.session
        let sni = session.request.effectiveSNI
        return await withTaskGroup(of: (Int, ClientSimulation).self) { group in
            for (index, client) in clients.enumerated() {
                let slot = session.claimSlot()
                group.addTask {
                    let result = await session.withSlot(slot) {
                        await session.step(
                            .simulated(SimulatedHello(client: client, sni: sni)), ready: slot.ready, permit: slot.key)
                    }
                    return (index, Self.simulation(of: client, result))
                }
            }
            var out: [(Int, ClientSimulation)] = []
            for await item in group { out.append(item) }
            return out.sorted { $0.0 < $1.0 }.map(\.1)
        }
    }

    /// The report's value for `client`'s connection.
    static func simulation(of client: AppleSimulatedClient, _ result: HandshakeResult) -> ClientSimulation {
        var simulation = ClientSimulation(
            client: client.name, profile: client.profile.name, osVersion: client.osVersion, evidence: client.evidence,
            outcome: .notRun)
        switch result.outcome {
        case .answered(let a):
            simulation.outcome = .negotiated
            simulation.version = a.version
            simulation.suite = AcceptedCipherSuite(
                suite: a.suite, openSSLName: a.openSSLName, group: a.group, groupBits: a.groupBits)
            if let code = result.hello?.group {
                var group = AcceptedGroup(group: NamedGroup(code))
                group.proven = a.version >= .tls1_3 ? result.hello?.proven : nil
                simulation.group = group
            }
            simulation.signatureScheme = result.hello?.signatureScheme.map(SignatureSchemeCatalogue.name)
            simulation.quantumSecure = simulation.group?.postQuantum ?? false
        case .refused(let refusal):
            simulation.outcome = .refused
            simulation.failure = "the server refuses the ClientHello: \(refusal.reason)"
        case .dropped(let drop):
            simulation.outcome = .dropped
            simulation.failure = failure(of: drop)
        case .silent(let silence):
            simulation.outcome = .timedOut
            simulation.failure = silence.reason
        case .broken(let why):
            simulation.outcome = .broken
            simulation.failure = why
        case .notTLS(let peer):
            simulation.outcome = .broken
            simulation.failure = peer.description
        case .unreachable(let why), .notRun(let why), .proxyFailed(let why, _):
            simulation.failure = "not simulated: \(why)"
        }
        return simulation
    }

    /// A drop in the client's words: where the connection ended, from the ClientHello's point of view.
    static func failure(of drop: HandshakeResult.Drop) -> String {
        guard case .handshake = drop.phase else { return drop.reason }
        let how = drop.signal == .reset ? "reset" : "closed"
        let when =
            drop.afterBytes == 0
            ? "after the ClientHello, with no answer" : "mid-handshake, after \(drop.afterBytes) bytes of the answer"
        let attempts = drop.attempts > 1 ? " (\(drop.attempts) attempts)" : ""
        return "the connection is \(how) \(when)\(attempts)"
    }
}
