import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// SCTs as the probe sees them on real loopback handshakes: embedded in the leaf, in the TLS extension and in a
/// stapled OCSP response, each checked against its test log's key with OpenSSL's CT API.
@Suite("SCT collection and verification")
struct SCTVerifierTests {
    /// Two logs of two operators, listed usable, and one log the list does not have.
    static let logA = try! TestCTLog("Test Log A", operator: "Operator One")
    static let logB = try! TestCTLog("Test Log B", operator: "Operator Two")
    static let unlisted = try! TestCTLog("Unlisted Log", operator: "Operator Three")
    static let list = try! TestCTLogList.make([TestCTLogListing(logA), TestCTLogListing(logB)])
    static let pki = try! TestPKI.make(name: "sct-verifier")

    /// A leaf for localhost embedding `scts`.
    static func leaf(_ scts: [SCTSpec]) throws -> TestCertificate {
        try pki.leaf(CertificateSpec.leaf("localhost", "127.0.0.1").withSignedSCTs(scts))
    }

    /// Scans `server` with the PKI's root as the system roots (a PEM bundle) and `logList`.
    static func scan(_ server: TestTLSServer, logList: CTLogList? = list) async throws -> CertificateReport {
        let root = TestScratch.file("atscheck-sct-root", suffix: ".pem")
        try pki.rootPEM.write(toFile: root, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30)
        request.trustSource = .pemBundle(root)
        request.ctLogList = logList
        let profile = await TLSProber(perHostLimit: 2).scan(request)
        return try #require(profile.certificate)
    }

    @Test("embedded SCTs from listed logs verify, with their logs named")
    func embeddedValid() async throws {
        let leaf = try Self.leaf([SCTSpec(Self.logA), SCTSpec(Self.logB)])
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: leaf)))
        let report = try await Self.scan(server)
        #expect(report.anchor == .system)  // the PEM bundle's root stands in for a preinstalled root
        let ct = try #require(report.transparency)
        #expect(ct.requestedDelivered)
        #expect(ct.logList.hasPrefix("test log list"))
        #expect(ct.scts.map(\.source) == [.embedded, .embedded])
        #expect(ct.scts.map(\.signature) == [.valid, .valid])
        #expect(ct.scts.map(\.log?.description) == ["Test Log A", "Test Log B"])
        #expect(ct.scts.map(\.logID) == [Self.logA.idBase64, Self.logB.idBase64])
    }

    @Test("a corrupted embedded signature is invalid; the other SCT still verifies")
    func embeddedCorrupted() async throws {
        let leaf = try Self.leaf([SCTSpec(Self.logA, corruptSignature: true), SCTSpec(Self.logB)])
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: leaf)))
        let ct = try #require(try await Self.scan(server).transparency)
        #expect(ct.scts.map(\.signature) == [.invalid, .valid])
    }

    @Test("an SCT from a log the list lacks is unverified, with no log")
    func unknownLog() async throws {
        let leaf = try Self.leaf([SCTSpec(Self.unlisted), SCTSpec(Self.logA)])
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: leaf)))
        let ct = try #require(try await Self.scan(server).transparency)
        #expect(ct.scts.map(\.signature) == [.unverified, .valid])
        #expect(ct.scts[0].log == nil)
        #expect(ct.scts[0].logID == Self.unlisted.idBase64)
    }

    @Test("without a log list every SCT is read and unverified")
    func noLogList() async throws {
        let leaf = try Self.leaf([SCTSpec(Self.logA), SCTSpec(Self.logB)])
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: leaf)))
        let ct = try #require(try await Self.scan(server, logList: nil).transparency)
        #expect(ct.logList == "none")
        #expect(ct.scts.map(\.signature) == [.unverified, .unverified])
    }

    @Test("the SCT's timestamp is reported to the millisecond; a future SCT's signature is still checked")
    func timestamps() async throws {
        let past = Date().addingTimeInterval(-86_400.123)
        let future = Date().addingTimeInterval(86_400)
        let leaf = try Self.leaf([SCTSpec(Self.logA, at: past), SCTSpec(Self.logB, at: future)])
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: leaf)))
        let ct = try #require(try await Self.scan(server).transparency)
        #expect(abs(ct.scts[0].timestamp.timeIntervalSince(past)) < 0.001)
        #expect(ct.scts[1].timestamp > Date())
        #expect(ct.scts.map(\.signature) == [.valid, .valid])
    }

    @Test("SCTs in the TLS extension and a stapled OCSP response", arguments: [TLSVersion.tls1_2, .tls1_3])
    func delivered(version: TLSVersion) async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        var configuration = TLSServerConfiguration.modern(chain: Self.pki.chain(for: leaf))
        configuration.minVersion = version
        configuration.maxVersion = version
        configuration.sctList = TestCTLog.list([try Self.logA.sct(for: leaf, at: Date().addingTimeInterval(-60))])
        configuration.ocspStaple = try TestOCSPResponse.good(
            for: leaf, issuer: Self.pki.intermediate, scts: [try Self.logB.sct(for: leaf, at: Date())])
        let server = try TestTLSServer(configuration)
        let report = try await Self.scan(server)
        #expect(report.ocspStapled == true)
        let ct = try #require(report.transparency)
        let bySource = Dictionary(uniqueKeysWithValues: ct.scts.map { ($0.source, $0) })
        #expect(Set(bySource.keys) == [.tlsExtension, .ocsp])
        #expect(bySource[.tlsExtension]?.log?.description == "Test Log A")
        #expect(bySource[.ocsp]?.log?.description == "Test Log B")
        #expect(ct.scts.allSatisfy { $0.signature == .valid })
    }

    @Test("a corrupted SCT in the TLS extension is invalid")
    func deliveredCorrupted() async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        var configuration = TLSServerConfiguration.modern(chain: Self.pki.chain(for: leaf))
        configuration.sctList = TestCTLog.list([
            try Self.logA.sct(for: leaf, at: Date(), corruptSignature: true), try Self.logB.sct(for: leaf, at: Date()),
        ])
        let server = try TestTLSServer(configuration)
        let ct = try #require(try await Self.scan(server).transparency)
        #expect(ct.scts.map(\.source) == [.tlsExtension, .tlsExtension])
        #expect(ct.scts.map(\.signature) == [.invalid, .valid])
    }

    @Test("an SCT signed over another certificate does not verify for this one")
    func wrongCertificate() async throws {
        let other = try Self.pki.leaf(.leaf("other.example"))
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        var configuration = TLSServerConfiguration.modern(chain: Self.pki.chain(for: leaf))
        configuration.sctList = TestCTLog.list([try Self.logA.sct(for: other, at: Date())])
        let server = try TestTLSServer(configuration)
        let ct = try #require(try await Self.scan(server).transparency)
        #expect(ct.scts.map(\.signature) == [.invalid])
    }

    @Test("a CA file is a custom anchor; the same root as a PEM bundle is a system one")
    func anchorKinds() async throws {
        let server = try TestTLSServer(.modern(chain: Self.pki.chain(for: try Self.leaf([SCTSpec(Self.logA)]))))
        let root = TestScratch.file("atscheck-sct-ca", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: root, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30, caFiles: [root], useSystemTrustStore: false)
        let custom = await TLSProber(perHostLimit: 2).scan(request).certificate
        #expect(custom?.anchor == .custom)
        #expect(try await Self.scan(server).anchor == .system)
    }
}
