import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// The ClientHellos of our own in a full scan (issue 35): the groups each version accepts, the suite check after
/// OpenSSL's search, and no check where the server said the version itself is not spoken. The servers are
/// OpenSSL's (in process), configured with the groups and suites that are the tests' truth.
@Suite("Scans with ClientHellos of our own", .serialized)
struct OwnHelloTests {
    static func groupNames(_ profile: ServerProfile, _ version: TLSVersion) -> [String]? {
        profile.result(for: version)?.groups?.map(\.name)
    }

    @Test("a server's configured groups, per version, and nothing else")
    func configuredGroups() async throws {
        let server = try TestTLSServer(TLSServerConfiguration(groups: "P-384:X25519"))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(Self.groupNames(profile, .tls1_3) == ["x25519", "secp384r1"])
        #expect(Self.groupNames(profile, .tls1_2) == ["x25519", "secp384r1"])
        #expect(profile.result(for: .tls1_3)?.groupsComplete == nil)
        #expect(profile.result(for: .tls1_2)?.groupsComplete == nil)
        #expect(profile.acceptsPostQuantum == false)
        // An unsupported version has no groups.
        #expect(profile.result(for: .tls1_1)?.groups == nil)
    }

    @Test("OpenSSL 3.0's default groups: the classic curves and, in TLS 1.3, every ffdhe group; no post-quantum")
    func defaultGroups() async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        #expect(
            Self.groupNames(profile, .tls1_3)
                == [
                    "x25519", "secp256r1", "secp384r1", "secp521r1", "x448", "ffdhe2048", "ffdhe3072", "ffdhe4096",
                    "ffdhe6144", "ffdhe8192",
                ])
        #expect(Self.groupNames(profile, .tls1_2) == ["x25519", "secp256r1", "secp384r1", "secp521r1", "x448"])
        #expect(profile.result(for: .tls1_3)?.groups?.contains { $0.postQuantum } == false)
        // Every suite list is complete: the check after OpenSSL's search was refused.
        #expect(profile.protocols.allSatisfy { $0.enumerationComplete && $0.untestedSuites == nil })
    }

    @Test("a version refused with protocol_version is not checked again; one refused otherwise is")
    func checkOnlyWhereTheVersionMayBeSpoken() async throws {
        // OpenSSL refuses a version outside its range with protocol_version: TLS 1.0 and 1.1 cost one handshake
        // each, as before.
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256"))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server, perHost: 1)
        #expect(profile.supported(.tls1_2) == true && profile.supported(.tls1_1) == false)
        #expect(profile.suiteNames(.tls1_2) == ["TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256"])
        // lead (TLS 1.2, its suite) + its refusal + the suite check (the catalogue's TLS 1.2 suites OpenSSL does not
        // offer, and its DHE ones, in two chunks) + TLS 1.2's curves (5 found + 1) + TLS 1.1 + TLS 1.0 + the
        // ClientHello size check's two (HelloSizeProbe).
        let check = ProbeFixtures.checkSteps(.tls1_2, found: [CipherSuite(0xC02F)])
        #expect(check == 2)
        #expect(profile.handshakes == 1 + 1 + check + 6 + 2 + 2, "\(profile.handshakes) handshakes")
    }
}
