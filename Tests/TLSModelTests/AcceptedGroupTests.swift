import Foundation
import TLSModel
import Testing

@Suite("Accepted groups and untested codepoints in a profile")
struct AcceptedGroupTests {
    static func profile(tls13Groups: [NamedGroup]?, complete: Bool? = nil) -> ServerProfile {
        var tls13 = ProtocolResult(version: .tls1_3, supported: tls13Groups != nil)
        tls13.groups = tls13Groups.map { $0.map(AcceptedGroup.init(group:)) }
        tls13.groupsComplete = complete
        var tls12 = ProtocolResult(version: .tls1_2, supported: true)
        tls12.groups = [AcceptedGroup(group: .SecP256r1MLKEM768)]  // never offered in TLS 1.2, but read only in 1.3
        return ServerProfile(
            target: "a.example:443", host: "a.example", port: 443, status: .completed, protocols: [tls12, tls13])
    }

    @Test("post-quantum groups are read from TLS 1.3 alone, in the server's order")
    func postQuantum() {
        let hybrid = Self.profile(tls13Groups: [.x25519, .X25519MLKEM768, .secp256r1, .SecP384r1MLKEM1024])
        #expect(hybrid.postQuantumGroups.map(\.name) == ["X25519MLKEM768", "SecP384r1MLKEM1024"])
        #expect(hybrid.acceptsPostQuantum == true)
        let classical = Self.profile(tls13Groups: [.x25519, .secp256r1])
        #expect(classical.postQuantumGroups.isEmpty && classical.acceptsPostQuantum == false)
    }

    @Test("not enumerated, or a classical list from an enumeration that stopped early, is no answer")
    func unknown() {
        #expect(Self.profile(tls13Groups: nil).acceptsPostQuantum == nil)
        #expect(Self.profile(tls13Groups: [.x25519], complete: false).acceptsPostQuantum == nil)
        // A post-quantum group found before the enumeration stopped is still an answer.
        #expect(Self.profile(tls13Groups: [.X25519MLKEM768], complete: false).acceptsPostQuantum == true)
        var noTLS13 = Self.profile(tls13Groups: nil)
        noTLS13.protocols.removeLast()
        #expect(noTLS13.acceptsPostQuantum == nil && noTLS13.postQuantumGroups.isEmpty)
    }

    @Test("groups, groupsComplete and untestedSuites are omitted when nil and encoded when set")
    func encoding() throws {
        var result = ProtocolResult(version: .tls1_2, supported: true, enumerationComplete: false)
        func keys() throws -> [String: Any] {
            let data = try JSONEncoder().encode(result)
            return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        }
        let bare = try keys()
        #expect(bare["groups"] == nil && bare["groupsComplete"] == nil && bare["untestedSuites"] == nil)
        result.groups = [AcceptedGroup(group: .ffdhe2048)]
        result.groupsComplete = false
        result.untestedSuites = [.TLS_RSA_WITH_3DES_EDE_CBC_SHA, CipherSuite(0xC0A0)]
        let full = try keys()
        #expect(full["untestedSuites"] as? [String] == ["0x000A", "0xC0A0"])
        #expect(full["groupsComplete"] as? Bool == false)
        let group = try #require((full["groups"] as? [[String: Any]])?.first)
        #expect(group["name"] as? String == "ffdhe2048" && group["code"] as? String == "0x0100")
        #expect(group["postQuantum"] as? Bool == false && group["bits"] as? Int == 103)
        #expect(try JSONDecoder().decode(ProtocolResult.self, from: JSONEncoder().encode(result)) == result)
        #expect(result.namedGroups == [.ffdhe2048])
    }

    /// A `--save-profile` file as atscheck wrote it before groups and untested suites existed: it still decodes, with
    /// the new fields nil.
    static let savedBeforeGroups = """
        [{"target":"old.example:443","host":"old.example","port":443,"address":"127.0.0.1","sni":"old.example",
          "status":"completed","error":null,"handshakes":12,
          "protocols":[
            {"version":"TLSv1.2","supported":true,"serverPreference":true,"enumerationComplete":true,
             "cipherSuites":[{"name":"TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256","code":"0xC02F",
               "openSSLName":"ECDHE-RSA-AES128-GCM-SHA256","keyExchange":"ecdhe","authentication":"rsa",
               "forwardSecrecy":true,"group":"X25519","groupBits":256}]},
            {"version":"TLSv1.3","supported":true,"serverPreference":null,"enumerationComplete":true,
             "cipherSuites":[{"name":"TLS_AES_128_GCM_SHA256","code":"0x1301","openSSLName":"TLS_AES_128_GCM_SHA256",
               "keyExchange":"tls13","authentication":"any","forwardSecrecy":true,"group":"X25519","groupBits":256}]}
          ],
          "certificate":null,"scannedAt":"2026-11-20T10:00:00Z","durationSeconds":0.5,
          "probeLibrary":"OpenSSL 3.0.19 27 Jan 2026"}]
        """

    @Test("a profile saved before groups were enumerated still decodes, and says nothing of post-quantum")
    func oldProfile() throws {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let profiles = try decoder.decode([ServerProfile].self, from: Data(Self.savedBeforeGroups.utf8))
        let profile = try #require(profiles.first)
        #expect(profile.protocols.count == 2 && profile.supportedVersions == [.tls1_2, .tls1_3])
        for result in profile.protocols {
            #expect(result.groups == nil && result.groupsComplete == nil && result.untestedSuites == nil)
        }
        #expect(profile.acceptsPostQuantum == nil && profile.postQuantumGroups.isEmpty)
    }
}
