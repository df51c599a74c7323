import TLSModel

/// The judged era's own client could not connect: the scan sent that iOS release's ClientHello (its versions, suites,
/// groups, signature schemes and extensions, as captured; docs/architecture.md#apple-client-simulation) and the
/// server refused it, dropped it, let it time out or answered with something the client does not accept. Whatever
/// the enumeration says, an iPhone of that release fails here (NSURLError −1200): the enumeration's hellos are
/// OpenSSL's, and a server that reads a hello field the enumeration never sent (OCSP stapling, a large key share, a
/// hello over one TCP segment) answers an iPhone differently.
///
/// The era's simulation is the newest simulated release at or before the judged one (iOS 16 is judged by iOS 15.4's
/// hello, which it sends); a WKWebView client is judged by the release's Safari hello where one was simulated.
/// Releases before the oldest simulated one (iOS 12.2) have no simulation, and a simulation that did not run
/// decides nothing. The simulated hellos are those of ATS's default minimum (TLS 1.2): under a policy that lowers it
/// (`NSExceptionMinimumTLSVersion`, ATS off for the host) the client offers older versions too, so a failed simulation
/// is a note there, not a violation.
struct SimulatedHandshakeRule: ATSRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.ATS.simulatedHandshakeFailed, .tls, .error,
                title: "The ClientHello of this iOS release does not connect to the server.",
                help: """
                    atscheck sends each iOS release's own ClientHello (its TLS versions, cipher suites, groups, \
                    signature schemes and extensions, from captured hellos) and reads the answer as that client \
                    does. The server refused it, closed or reset the connection, never answered, or chose something \
                    the client did not offer, so an iPhone of the release fails the handshake (NSURLError −1200) \
                    whatever the suites the server accepts from other clients. The message says how it failed; a \
                    reset after the first segment of iOS 26's 1.5 kB hello points at a server or middlebox that \
                    reads one TCP segment only, a drop of every hello asking for OCSP stapling at a server that \
                    cannot staple. No Info.plist key helps: fix the server (or what is in front of it).
                    """)
        ]
    }

    func apply(to context: inout RuleContext) {
        guard let simulation = Self.simulation(for: context.client, in: context.profile.simulations ?? []) else {
            return
        }
        switch simulation.outcome {
        case .negotiated, .notRun:
            return
        case .refused, .dropped, .timedOut, .broken:
            // The simulated hellos are those of ATS's default, a TLS 1.2 minimum (iOS 26's offers TLS 1.2 and 1.3
            // only); a host whose policy lowers the minimum makes the client offer older versions too (the ATS
            // transform of Apple's Security source), a hello the scan did not send.
            guard context.policy.minimumTLS >= .tls1_2 else {
                context.notes.append(
                    "not judged by \(simulation.client)'s simulated ClientHello, which failed "
                        + "(\(simulation.failure ?? simulation.outcome.rawValue)): it offers ATS's default versions, "
                        + "and this host's policy lets the client offer \(context.policy.minimumTLS) as well")
                return
            }
            let how = simulation.failure ?? simulation.outcome.rawValue
            context.fail(
                RuleID.ATS.simulatedHandshakeFailed,
                "\(simulation.client)'s own ClientHello does not connect: \(how)")
        }
    }

    /// The simulation that stands for `client`: among those of the newest simulated release at or before the
    /// client's, its Safari one for a WKWebView client when there is one, else its URLSession one.
    static func simulation(for client: ATSClient, in simulations: [ClientSimulation]) -> ClientSimulation? {
        let releases = simulations.compactMap { simulation in
            AppleOSVersion(anyRelease: simulation.osVersion).map { (version: $0, simulation: simulation) }
        }
        guard let release = releases.map(\.version).filter({ $0 <= client.os }).max() else { return nil }
        let candidates = releases.filter { $0.version == release }.map { $0.simulation }
        let safari = candidates.first { $0.client.hasSuffix("(Safari)") }
        let urlSession = candidates.first { !$0.client.hasSuffix("(Safari)") }
        return client.kind == .wkWebView ? safari ?? urlSession : urlSession ?? safari
    }
}
