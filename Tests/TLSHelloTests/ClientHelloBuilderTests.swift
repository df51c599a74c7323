import Foundation
import Testing

@testable import TLSHello

@Suite("ClientHelloBuilder")
struct ClientHelloBuilderTests {
    static let zeroRandom = [UInt8](repeating: 0x11, count: 32)
    static let fixedGrease = GreaseValues(
        cipher: 0x3A3A, group: 0x6A6A, extension1: 0x1A1A, extension2: 0xFAFA, version: 0xBABA)

    @Test("a minimal hello is encoded byte for byte")
    func minimal() throws {
        let profile = HelloProfile(
            name: "t", source: "test", cipherSuites: [0xC02F, 0x00FF],
            extensions: [.serverName, .extendedMasterSecret, .renegotiationInfo])
        let built = try ClientHelloBuilder(profile: profile, serverName: "a.b", random: Self.zeroRandom, sessionID: [])
            .build()
        let body =
            "0303" + String(repeating: "11", count: 32) + "00" + "0004c02f00ff" + "0100"
            + "0015" + "00000008000600" + "0003612e62" + "00170000" + "ff01000100"
        let expected =
            "16030100" + String(format: "%02x", body.count / 2 + 4) + "010000" + String(format: "%02x", body.count / 2)
            + body
        #expect(built.bytes.hexString == expected)
        #expect(built.handshakeMessage == Array(built.bytes[5...]))
        #expect(built.keyShares.isEmpty)
    }

    @Test("GREASE placeholders take the connection's values, slot by slot")
    func grease() throws {
        let profile = HelloProfile(
            name: "t", source: "test", cipherSuites: [HelloProfile.grease, 0x1301],
            extensions: [
                .grease, .supportedGroups([HelloProfile.grease, 0x001D]), .keyShare([HelloProfile.grease, 0x001D]),
                .supportedVersions([HelloProfile.grease, 0x0304]), .grease,
            ])
        let built = try ClientHelloBuilder(profile: profile, random: Self.zeroRandom, grease: Self.fixedGrease).build()
        let hex = built.bytes.hexString
        #expect(hex.contains("00043a3a1301"))  // suites
        #expect(hex.contains("1a1a0000"))  // first GREASE extension, empty
        #expect(hex.contains("000a000600046a6a001d"))  // supported_groups
        #expect(hex.contains("6a6a000100001d0020"))  // GREASE share of one byte, then x25519's 32
        #expect(hex.contains("002b0005" + "04baba0304"))
        #expect(hex.hasSuffix("fafa000100"))  // second GREASE extension, one zero byte
        #expect(built.keyShares.map(\.group) == [0x001D])
    }

    @Test("random GREASE values are RFC 8701 values and the two extensions differ")
    func randomGrease() {
        for _ in 0..<200 {
            let values = GreaseValues.random()
            for value in [values.cipher, values.group, values.extension1, values.extension2, values.version] {
                #expect(GreaseValues.reserved.contains(value))
            }
            #expect(values.extension1 != values.extension2)
        }
        #expect(GreaseValues.reserved.count == 16 && GreaseValues.reserved.allSatisfy(GreaseValues.isGrease))
        #expect(!GreaseValues.isGrease(0x0A1A) && !GreaseValues.isGrease(0x1301))
    }

    @Test("padding brings a 256–511-byte hello to a 512-byte handshake, and is left out otherwise")
    func padding() throws {
        let many = HelloProfile.probe(version: 0x0303, suites: Array(0xC001...0xC050), groups: [0x001D, 0x0017])
        let padded = try ClientHelloBuilder(profile: many, serverName: "example.com").build()
        #expect(padded.handshakeMessage.count == 512)
        #expect(padded.bytes.count == 517)
        let few = HelloProfile.probe(version: 0x0303, suites: [0xC02F], groups: [0x001D])
        var unpadded = few
        unpadded.extensions.removeAll { $0.type == 0x0015 }
        let small = try ClientHelloBuilder(profile: few, serverName: "example.com", random: Self.zeroRandom).build()
        let same = try ClientHelloBuilder(profile: unpadded, serverName: "example.com", random: Self.zeroRandom).build()
        #expect(small.handshakeMessage.count < 256)
        #expect(small.bytes == same.bytes)
        let huge = HelloProfile.probe(version: 0x0303, suites: Array(0xC001...0xC0FF), groups: [0x001D])
        let big = try ClientHelloBuilder(profile: huge).build()
        #expect(big.handshakeMessage.count > 512)
    }

    @Test(
        "key shares have their groups' sizes",
        arguments: [
            (UInt16(0x001D), 32), (0x0017, 65), (0x0018, 97), (0x0019, 133), (0x11EC, 1216), (0x11EB, 1249),
            (0x11ED, 1665),  // hybrids: 1184 + 32, 65 + 1184, 97 + 1568
        ])
    func keyShareSizes(group: UInt16, size: Int) throws {
        let profile = HelloProfile.probe(version: 0x0304, suites: [0x1301], groups: [group])
        let built = try ClientHelloBuilder(profile: profile).build()
        let share = try #require(built.keyShare(for: group))
        #expect(share.publicBytes.count == size)
        #expect(built.sessionID.count == 32)
    }

    @Test("a key share the engine cannot make is refused")
    func unsupportedShare() {
        let profile = HelloProfile(name: "t", source: "test", cipherSuites: [0x1301], extensions: [.keyShare([0x0100])])
        #expect(throws: TLSHelloError(.unsupportedKeyShare, "")) { try ClientHelloBuilder(profile: profile).build() }
    }

    @Test("no server_name for an IP address")
    func ipAddressHasNoSNI() throws {
        let profile = HelloProfile.probe(version: 0x0303, suites: [0xC02F], groups: [])
        let byIP = try ClientHelloBuilder(profile: profile, serverName: "127.0.0.1", random: Self.zeroRandom).build()
        let byName = try ClientHelloBuilder(profile: profile, serverName: "localhost", random: Self.zeroRandom).build()
        #expect(!byIP.bytes.hexString.contains("6c6f63616c686f7374"))
        #expect(byName.bytes.hexString.contains("0000000e000c0000096c6f63616c686f7374"))
        #expect(byName.bytes.count == byIP.bytes.count + 18)
    }

    @Test("the probe hello offers one version: no supported_versions below TLS 1.3, only 0x0304 in it")
    func probeVersions() throws {
        let tls12 = HelloProfile.probe(version: 0x0302, suites: [0x000A], groups: [])
        #expect(!tls12.extensions.contains { $0.type == 0x002B })
        #expect(tls12.legacyVersion == 0x0302)
        #expect(!tls12.extensions.contains { $0.type == 0x000D })
        let tls13 = HelloProfile.probe(
            version: 0x0304, suites: [0x1301], groups: [0x0100, 0x11EC, 0x001D], keyShares: 2)
        #expect(tls13.extensions.contains(.supportedVersions([0x0304])))
        #expect(tls13.extensions.contains(.keyShare([0x11EC, 0x001D])))
        #expect(tls13.highestVersion == 0x0304)
    }

    @Test("a hello over 2^14 bytes is cut into records")
    func fragments() throws {
        let profile = HelloProfile(
            name: "t", source: "test", cipherSuites: [0xC02F],
            extensions: [.raw(type: 0xFFAA, body: [UInt8](repeating: 7, count: 20000))])
        let built = try ClientHelloBuilder(profile: profile).build()
        #expect(built.bytes[3] == 0x40 && built.bytes[4] == 0x00)  // first record: 16384 bytes
        #expect(built.bytes[5 + 16384] == 22)
        #expect(built.bytes.count == built.handshakeMessage.count + 10)
    }

    @Test(
        "a retry echoes the cookie after key_share, keeps random and session id, and reuses shares when no group is asked"
    )
    func retryWithCookie() throws {
        let first = try ClientHelloBuilder(profile: .ios18, serverName: "example.com").build()
        let cookieBody: [UInt8] = [0, 3, 0xC0, 0x0C, 0x1E]
        let hrr = HelloRetryRequestFacts(
            version: 0x0304, cipherSuite: 0x1301, group: nil, cookie: cookieBody, extensionTypes: [0x002B, 0x002C],
            message: [2, 0, 0, 0])
        let second = try first.retry(after: hrr)
        #expect(second.random == first.random && second.sessionID == first.sessionID && second.grease == first.grease)
        #expect(second.keyShares.map(\.publicBytes) == first.keyShares.map(\.publicBytes))
        let parsed = try CapturedHello.parse(second.bytes)
        let types = parsed.extensions.map(\.0)
        let keyShare = try #require(types.firstIndex(of: 0x0033))
        #expect(types[keyShare + 1] == 0x002C)
        let cookieRange = parsed.extensions[keyShare + 1].1
        #expect(Array(second.bytes[cookieRange]) == cookieBody)
        #expect(second.retryOf?.firstHello == first.handshakeMessage)
        #expect(first.retryOf == nil)
    }

    @Test("lists too long for their length fields are refused, not wrapped")
    func overflow() {
        let longName = HelloProfile(
            name: "t", source: "test", cipherSuites: [0x1301], extensions: [.alpn([String(repeating: "x", count: 256)])]
        )
        #expect(throws: TLSHelloError(.invalidProfile, "")) { try ClientHelloBuilder(profile: longName).build() }
        let manyVersions = HelloProfile(
            name: "t", source: "test", cipherSuites: [0x1301],
            extensions: [.supportedVersions(Array(repeating: 0x0304, count: 128))])
        #expect(throws: TLSHelloError(.invalidProfile, "")) { try ClientHelloBuilder(profile: manyVersions).build() }
        let manySuites = HelloProfile(
            name: "t", source: "test", cipherSuites: Array(repeating: 0x1301, count: 40000), extensions: [])
        #expect(throws: TLSHelloError(.invalidProfile, "")) { try ClientHelloBuilder(profile: manySuites).build() }
        let longest = HelloProfile(
            name: "t", source: "test", cipherSuites: [0x1301], extensions: [.alpn([String(repeating: "x", count: 255)])]
        )
        #expect(throws: Never.self) { try ClientHelloBuilder(profile: longest).build() }
    }
}
