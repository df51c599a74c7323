import Foundation
import TLSModel

/// What `atscheck diagnose --tls-diagnostics` reports: what macOS 26's `nscurl --tls-diagnostics https://host` prints
/// (the negotiated version and cipher suite as code points, the key-exchange group by name), taken from the scan's
/// simulation of one Apple client (``ServerProfile/simulations``) rather than from a connection of its own.
///
/// The client is the URLSession simulation of the era in force on the release asked for (`--os-version`; the newest
/// by default): the newest simulated era not after it, as nscurl is a URLSession client.
///
/// Field names are part of the JSON contract (docs/json-output.md, key `tlsDiagnostics`).
package struct TLSDiagnostics: Codable, Sendable, Equatable {
    /// nscurl's verdict, in its words: the simulated client connects or not; or there was nothing to simulate with.
    package enum Result: String, Codable, Sendable, Equatable {
        case pass = "PASS"
        case fail = "FAIL"
        /// The scan has no simulation for the release (none ran, or none of an era that old).
        case notSimulated = "NOT SIMULATED"
    }

    /// The URL as the user gave it.
    package var url: String
    /// The release asked for (`--os-version`), as `26.4`.
    package var osVersion: String
    package var result: Result
    /// The simulated client the result comes from; nil when ``result`` is `notSimulated`.
    package var simulation: ClientSimulation?
    /// nscurl's `Negotiated TLS version (codepoint)`: `0x0304`.
    package var negotiatedVersion: String?
    /// nscurl's `Negotiated TLS key exchange group (name)`: `X25519MLKEM768`; nil for RSA key exchange or a failure.
    package var negotiatedGroup: String?
    /// nscurl's `Negotiated TLS ciphersuite (codepoint)`: `0x1302`.
    package var negotiatedSuite: String?
    /// Why the client fails or nothing was simulated (``result`` not `pass`).
    package var error: String?
    /// The OS releases the scan simulated (`12.2`, …, `26`), oldest first.
    package var simulatedReleases: [String]

    /// Picks the simulation for `osVersion` from `profile` and reads what nscurl would print from it.
    /// - Parameters:
    ///   - profile: the scanned endpoint, with its ``ServerProfile/simulations``.
    ///   - url: the URL as the user gave it.
    ///   - osVersion: the release asked for, as `26.4` or `17`.
    package init(profile: ServerProfile, url: String, osVersion: String) {
        self.url = url
        self.osVersion = osVersion
        let simulations = profile.simulations ?? []
        simulatedReleases = Self.releases(of: simulations)
        guard profile.status == .completed else {
            result = .notSimulated
            error = "the endpoint could not be scanned: \(profile.error ?? profile.status.rawValue)"
            return
        }
        guard profile.simulations != nil else {
            result = .notSimulated
            error = "the scan simulated no Apple client (it was made without client simulation)"
            return
        }
        guard let chosen = Self.simulation(for: osVersion, in: simulations) else {
            result = .notSimulated
            let list = simulatedReleases.isEmpty ? "none" : simulatedReleases.joined(separator: ", ")
            error = "no Apple client of iOS \(osVersion) or older was simulated (simulated: \(list))"
            return
        }
        simulation = chosen
        guard chosen.connects else {
            result = .fail
            error = "\(chosen.client) fails: \(chosen.failure ?? chosen.outcome.rawValue) (\(chosen.outcome.rawValue))"
            return
        }
        result = .pass
        negotiatedVersion = chosen.version.map { String(format: "0x%04X", $0.rawValue) }
        negotiatedGroup = chosen.group?.name
        negotiatedSuite = chosen.suite?.code
    }

    /// The simulation nscurl on `osVersion` stands for: of the newest simulated release not after it, the URLSession
    /// client if there is one (nscurl is a URLSession client), else the first.
    static func simulation(for osVersion: String, in simulations: [ClientSimulation]) -> ClientSimulation? {
        guard let wanted = release(osVersion) else { return nil }
        let eligible = simulations.filter {
            release($0.osVersion).map { !wanted.lexicographicallyPrecedes($0) } ?? false
        }
        guard let newest = eligible.compactMap({ release($0.osVersion) }).max(by: { $0.lexicographicallyPrecedes($1) })
        else { return nil }
        let era = eligible.filter { release($0.osVersion) == newest }
        return era.first(where: isURLSession) ?? era.first
    }

    /// Whether the simulated client is URLSession (`iOS 26 (URLSession)`, profile `ios26-urlsession`) rather than
    /// Safari or WKWebView.
    static func isURLSession(_ simulation: ClientSimulation) -> Bool {
        simulation.client.localizedCaseInsensitiveContains("urlsession")
            || simulation.profile.localizedCaseInsensitiveContains("urlsession")
    }

    /// `15.4` as `[15, 4, 0]`; nil when it is not one to three dot-separated numbers.
    static func release(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return parts.compactMap { $0 } + Array(repeating: 0, count: 3 - parts.count)
    }

    /// The distinct releases simulated, oldest first.
    static func releases(of simulations: [ClientSimulation]) -> [String] {
        var seen = Set<String>()
        let distinct = simulations.map(\.osVersion).filter { seen.insert($0).inserted }
        return distinct.sorted { (release($0) ?? []).lexicographicallyPrecedes(release($1) ?? []) }
    }
}
