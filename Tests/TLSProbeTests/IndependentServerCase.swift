import Foundation
import TLSHello
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// One server of the independent-server matrix (issue 35): how to start it, what its configuration says it accepts
/// (the truth, from the configuration and the stack's documentation, never from what atscheck printed), and which
/// comparisons cannot be exact yet because the prober offers only what OpenSSL 3.0 can.
struct IndependentServerCase: Sendable, CustomTestStringConvertible {
    /// What one version accepts.
    struct Accepted: Sendable {
        var version: TLSVersion
        /// IANA codepoints: in the server's order when ``serverOrder``, else as a set in any order.
        var suites: [UInt16]
        /// Whether the server picks by its own order.
        var serverOrder: Bool
        /// Every group the version accepts when the case restricts them, by IANA name (`secp384r1`, `x25519`,
        /// `ffdhe2048`, `X25519MLKEM768`); nil when the case does not restrict groups.
        var groups: Set<String>?
        /// Whether the server puts ChaCha20-Poly1305 first for a client whose first suite is ChaCha20 (Go's
        /// crypto/tls, OpenSSL's `SSL_OP_PRIORITIZE_CHACHA`).
        var chachaFirst: Bool

        init(
            _ version: TLSVersion, _ suites: [UInt16], serverOrder: Bool = true, groups: Set<String>? = nil,
            chachaFirst: Bool = false
        ) {
            self.version = version
            self.suites = suites
            self.serverOrder = serverOrder
            self.groups = groups
            self.chachaFirst = chachaFirst
        }

        /// The `chachaPrioritized` a scan must report: asked only of a server order whose first choice is not
        /// ChaCha20-Poly1305 and which accepts a ChaCha20 suite (``SuiteSearch/takeChaChaProbe()``), nil otherwise.
        var expectedChaChaPrioritized: Bool? {
            let isChaCha = { (code: UInt16) in CipherSuite(code).info?.isChaCha20Poly1305 == true }
            guard serverOrder, suites.count >= 2, let first = suites.first, !isChaCha(first),
                suites.contains(where: isChaCha)
            else { return nil }
            return chachaFirst
        }
    }

    /// A comparison between the scan and the truth.
    enum Field: String, Sendable, Hashable {
        /// The scan completed (`status == .completed`).
        case status
        /// No handshake was tried again: every server here answers, so a retry is a refusal taken for a drop.
        case retries
        /// Whether a version is supported.
        case supported
        /// The set of accepted suites.
        case suites
        /// Whether the server was found to pick by its own order.
        case preference
        /// The accepted suites in the server's order.
        case order
        /// Whether the server puts ChaCha20 first for a client that lists it first (`chachaPrioritized`).
        case chacha
        /// The groups the version accepts.
        case groups
        /// Whether a version is supported, by an ats-only scan (`--ats-only`, the default of `audit`).
        case atsOnlySupported = "ats-only supported"
        /// A simulated Apple client's outcome against what the enumeration predicts for it (issue 36), per client.
        case simulation
    }

    /// A field of one version (nil for ``Field/status`` and ``Field/retries``).
    struct Key: Sendable, Hashable {
        var field: Field
        var version: TLSVersion?
        /// The simulated client (``Field/simulation``), by its OS release: `26`, `18`.
        var client: String? = nil
    }

    let name: String
    let start: @Sendable () throws -> IndependentServer
    let accepted: [Accepted]
    /// The comparisons that cannot be exact yet, each with what OpenSSL 3.0 cannot offer: each is wrapped in
    /// `withKnownIssue`, so the test fails once the gap closes and the entry must go.
    let gaps: [Key: String]
    /// What some simulated clients must negotiate, beyond agreeing with the enumeration: by OS release, the group's
    /// IANA name (`X25519MLKEM768`), or nil for a client that must fail.
    let simulatedGroups: [String: String?]

    init(
        _ name: String, accepts accepted: [Accepted], gaps: [Key: String] = [:],
        simulatedGroups: [String: String?] = [:], start: @escaping @Sendable () throws -> IndependentServer
    ) {
        self.name = name
        self.start = start
        self.accepted = accepted
        self.gaps = gaps
        self.simulatedGroups = simulatedGroups
    }

    var testDescription: String { name }

    /// The handshake budget of docs/architecture.md#the-probe for the configuration: per supported version its suites
    /// + 1 (+ 1 for the order when two or more), + 1 per version not supported.
    var configuredBudget: Int {
        TLSVersion.probed.reduce(0) { sum, version in
            guard let truth = accepted.first(where: { $0.version == version }) else { return sum + 1 }
            let n = truth.suites.count
            return sum + n + 1 + (n >= 2 ? 1 : 0)
        }
    }

    /// Starts the server, scans it with the real prober, compares every field with the truth (one expectation per
    /// field, named with the case) and prints what the scan cost.
    func run() async throws {
        let server = try start()
        defer { server.stop() }
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 60, caFiles: [try ProbeFixtures.caFile()])
        let clock = ContinuousClock.now
        let profile = await TLSProber(simulatedClients: .everyEra).scan(request)
        let elapsed = ContinuousClock.now - clock
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        // Printed, not asserted: what a scan costs today, against the budget of what it found (docs/architecture.md).
        print(
            "[independent-servers] \(name): \(profile.handshakes) handshakes (budget \(ProbeFixtures.budget(profile)) "
                + "of what it found, \(configuredBudget) of the configuration), "
                + "\(profile.retries) retries, \(profile.drops) drops, \(String(format: "%.2f", seconds)) s; "
                + "\(profile.simulations?.count ?? 0) of them simulated clients")
        compare(profile)
        compareSimulations(profile)

        var atsOnly = request
        atsOnly.scope = .atsOnly
        let atsClock = ContinuousClock.now
        let atsProfile = await TLSProber().scan(atsOnly)
        let atsElapsed = ContinuousClock.now - atsClock
        let atsSeconds = Double(atsElapsed.components.seconds) + Double(atsElapsed.components.attoseconds) / 1e18
        print(
            "[independent-servers] \(name) (ats-only): \(atsProfile.handshakes) handshakes, "
                + "\(atsProfile.retries) retries, \(atsProfile.drops) drops, \(String(format: "%.2f", atsSeconds)) s")
        compareVersions(atsOnly: atsProfile)
    }

    /// The versions an ats-only scan found, against the truth: it tries fewer suites, but every version must still be
    /// known (issue 35: a version reached only through suites OpenSSL cannot offer read "NOT SCANNED").
    func compareVersions(atsOnly profile: ServerProfile) {
        for version in TLSVersion.probed {
            let configured = accepted.contains { $0.version == version }
            let result = profile.result(for: version)
            check(
                .atsOnlySupported, version, result?.supported == configured,
                "supported \(String(describing: result?.supported)) (\(result?.reason ?? "")), configured \(configured)"
            )
        }
    }

    /// Every difference between `profile` and the truth, one expectation per field.
    func compare(_ profile: ServerProfile) {
        check(.status, nil, profile.status == .completed, "status \(profile.status) \(profile.error ?? "")")
        check(.retries, nil, profile.retries == 0, "\(profile.retries) retries, \(profile.drops) drops")
        for version in TLSVersion.probed {
            let truth = accepted.first { $0.version == version }
            let result = profile.result(for: version)
            check(
                .supported, version, result?.supported == (truth != nil),
                "supported \(String(describing: result?.supported)) (\(result?.reason ?? "")), configured \(truth != nil)"
            )
            guard let truth, let result, result.supported == true else { continue }
            let found = result.suites.map(\.rawValue)
            check(
                .suites, version, Set(found) == Set(truth.suites),
                "suites \(Self.hex(found)), configured \(Self.hex(truth.suites))")
            if truth.suites.count >= 2 {
                check(
                    .preference, version, result.serverPreference == truth.serverOrder,
                    "serverPreference \(String(describing: result.serverPreference)), configured \(truth.serverOrder)")
            }
            if truth.serverOrder, truth.suites.count >= 2 {
                // With `serverOrderComplete: false` the report claims the server's first choice only
                // (docs/json-output.md): the rest is in the offer's order.
                let claimed = result.serverOrderComplete == false ? Array(found.prefix(1)) : found
                let configured = result.serverOrderComplete == false ? Array(truth.suites.prefix(1)) : truth.suites
                check(
                    .order, version, claimed == configured,
                    "order \(Self.hex(found))\(result.serverOrderComplete == false ? " (first choice only)" : ""), configured \(Self.hex(truth.suites))"
                )
            }
            check(
                .chacha, version, result.chachaPrioritized == truth.expectedChaChaPrioritized,
                "chachaPrioritized \(String(describing: result.chachaPrioritized)), configured \(String(describing: truth.expectedChaChaPrioritized))"
            )
            if let groups = truth.groups {
                // Every group the version accepts, enumerated with ClientHellos of our own (IANA names).
                let accepted = Set(result.groups?.map(\.name) ?? [])
                check(
                    .groups, version, accepted == groups && result.groupsComplete == nil,
                    "groups \(accepted.sorted())\(result.groupsComplete == false ? " (incomplete)" : ""), configured \(groups.sorted())"
                )
            }
        }
    }

    /// Each simulated client against what the enumeration predicts for it (``SimulationAgreement``), and against
    /// ``simulatedGroups``.
    func compareSimulations(_ profile: ServerProfile) {
        let simulations = profile.simulations ?? []
        check(
            .simulation, nil, simulations.count == AppleSimulatedClient.simulated.count,
            "\(simulations.count) simulated")
        let disagreements = SimulationAgreement.disagreements(profile)
        for simulation in simulations {
            let disagreement = disagreements.first { $0.client == simulation.client }
            check(
                .simulation, nil, disagreement == nil, disagreement?.description ?? "", client: simulation.osVersion)
            guard let expected = simulatedGroups[simulation.osVersion] else { continue }
            let said = SimulationAgreement.describe(simulation)
            if let group = expected {
                check(
                    .simulation, nil,
                    simulation.connects && simulation.group?.name == group
                        && simulation.quantumSecure == (simulation.group?.postQuantum == true)
                        && simulation.group?.proven == true,
                    "\(simulation.client): \(said), configured to negotiate \(group)", client: simulation.osVersion)
            } else {
                check(
                    .simulation, nil, !simulation.connects, "\(simulation.client): \(said), configured to fail",
                    client: simulation.osVersion)
            }
        }
    }

    private func check(
        _ field: Field, _ version: TLSVersion?, _ exact: Bool, _ detail: String, client: String? = nil
    ) {
        let comment = Comment(
            rawValue:
                "\(name) \(version.map { "\($0) " } ?? "")\(client.map { "iOS \($0) " } ?? "")\(field.rawValue): \(detail)"
        )
        if let reason = gaps[Key(field: field, version: version, client: client)] {
            withKnownIssue("issue \(field == .simulation ? 36 : 35): \(reason)") { #expect(exact, comment) }
        } else {
            #expect(exact, comment)
        }
    }

    private static func hex(_ codes: [UInt16]) -> String {
        "[" + codes.map { String(format: "%04X", $0) }.joined(separator: " ") + "]"
    }
}

extension IndependentServerCase.Key {
    /// Shorthand for a gap's key.
    static func on(_ field: IndependentServerCase.Field, _ version: TLSVersion?) -> Self {
        Self(field: field, version: version)
    }
}
