import ATSCheckKit
import CertificateTrust
import Foundation
import Pinning
import TLSModel
import TLSTestSupport

/// Staging-like servers for pin checks, each started once per test process on 127.0.0.1 and scanned once
/// through the real pipeline; the served chains are then evaluated under many policies with the real OpenSSL
/// path builder.
final class PinScenarios: @unchecked Sendable {  // immutable after init
    static let host = "staging.pins.atscheck.test"

    /// The staging PKI (its root is the `--ca-file`) and another one nobody trusts.
    let pki: TestPKI
    let otherPKI: TestPKI
    let caFile: String

    /// Certificates used as pins or served.
    let leaf: TestCertificate
    let selfSignedLeaf: TestCertificate
    let renewedSameKey: TestCertificate
    let renewedNewKey: TestCertificate
    let rotatedIntermediate: TestCertificate
    let rotatedLeaf: TestCertificate
    let unrelated: TestCertificate

    /// Served chains by scenario, as a real scan read them.
    private(set) var served: [String: [CertificateFacts]] = [:]
    /// The chain each scenario's server sends, leaf first.
    private(set) var chains: [String: [TestCertificate]] = [:]
    private var servers: [TestTLSServer] = []

    private static let making = Task { try await PinScenarios() }

    /// The scenarios, made on first use.
    static func shared() async throws -> PinScenarios { try await making.value }

    private init() async throws {
        pki = try TestPKI.make(name: "pins staging")
        otherPKI = try TestPKI.make(name: "pins other")
        caFile = TestScratch.file("atscheck-pins", suffix: ".pem")
        try pki.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        let h = Self.host
        leaf = try pki.leaf(.leaf(h))
        var ss = CertificateSpec.leaf(h)
        ss.keySlot = "pins-self-signed"
        selfSignedLeaf = try TestCertificate.selfSigned(ss)
        renewedSameKey = try pki.leaf(.leaf(h, notBefore: Date().addingTimeInterval(-3_600)))  // same "leaf" key slot
        var newKey = CertificateSpec.leaf(h)
        newKey.keySlot = "pins-renewed-new-key"
        renewedNewKey = try pki.leaf(newKey)
        rotatedIntermediate = try pki.root.issue(.ca("pins staging Rotated Intermediate CA"))
        rotatedLeaf = try rotatedIntermediate.issue(.leaf(h))
        var unrelatedSpec = CertificateSpec.leaf("unrelated.pins.atscheck.test")
        unrelatedSpec.keySlot = "pins-unrelated"
        unrelated = try otherPKI.leaf(unrelatedSpec)
        let wrongHost = try pki.leaf(.leaf("other.pins.atscheck.test"))
        let expired = try pki.leaf(CertificateSpec.leaf(h).expired(daysAgo: 2))

        let chains: [String: [TestCertificate]] = [
            "private-ca": [leaf, pki.intermediate],
            "self-signed": [selfSignedLeaf],
            "wrong-host": [wrongHost, pki.intermediate],
            "expired": [expired, pki.intermediate],
            "renewed-same-key": [renewedSameKey, pki.intermediate],
            "renewed-new-key": [renewedNewKey, pki.intermediate],
            "rotated-intermediate": [rotatedLeaf, rotatedIntermediate],
            "extra-unrelated": [leaf, pki.intermediate, unrelated, otherPKI.intermediate],
            "root-sent": [leaf, pki.intermediate, pki.root],
        ]
        self.chains = chains
        for (name, chain) in chains {
            let server = try TestTLSServer(.modern(chain: chain))
            servers.append(server)
            served[name] = try await Self.scan(port: server.port, caFile: caFile)
        }
    }

    /// One real scan of the server through the pipeline; the chain as sent.
    static func scan(port: Int, caFile: String, atsOnly: Bool = false) async throws -> [CertificateFacts] {
        var settings = ScanSettings()
        if atsOnly { settings.scope = .atsOnly }
        settings.resolve = [try ResolveRule(parsing: "\(host):\(port):127.0.0.1")]
        settings.caFiles = [caFile]
        settings.useSystemTrustStore = false
        settings.timeout = 3
        let profiles = await ScanPipeline(settings: settings).probe([try Target(parsing: "\(host):\(port)")])
        guard let chain = profiles.first?.certificate?.chain, !chain.isEmpty else {
            throw ProbeFailure(.local, "no chain from the \(port) server: \(profiles.first?.error ?? "?")")
        }
        return chain
    }

    /// The facts of a test certificate (a pin).
    static func facts(_ certificate: TestCertificate) -> CertificateFacts {
        try! CertificateParsing.facts(der: certificate.der)
    }

    /// The real builder over a scenario's served chain (no system store: only the staging root counts).
    func builder(_ scenario: String, now: Date = Date()) throws -> OpenSSLTrustPathBuilder {
        try OpenSSLTrustPathBuilder(served: served[scenario]!, caFiles: [caFile], useSystemStore: false, now: now)
    }

    /// A checker over given pins.
    func checker(
        _ policy: PinPolicy, certificates: [TestCertificate] = [], pinSet: PinSet? = nil,
        pinnedDomains: PinnedDomainsConfiguration? = nil,
        caFiles: [String]? = nil
    ) throws -> PinChecker {
        var pins = LoadedPins()
        pins.certificates = certificates.map {
            PinnedCertificateFile(file: "test.cer", facts: Self.facts($0), pemInDERFile: false)
        }
        pins.pinSet = pinSet
        pins.pinnedDomains = pinnedDomains
        return try PinChecker(
            policy: policy, pins: pins, pinsPath: "test", caFiles: caFiles ?? [caFile], useSystemStore: false)
    }

    /// Evaluates a policy on a scenario end to end (real path builder and evaluators).
    func result(_ scenario: String, _ checker: PinChecker) throws -> PinCheckResult {
        try checker.result(
            target: "\(Self.host):443", host: Self.host, port: 443, address: "127.0.0.1", served: served[scenario]!)
    }
}
