import Testing

@testable import TLSHello

@Suite("Apple profiles against captured hellos")
struct AppleProfilesTests {
    /// (profile, capture file): every profile whose era has a capture of raw bytes.
    static let cases: [(String, String)] = [
        ("ios9-urlsession-ats", "apple_ats_9_ios9"), ("ios9-safari", "safari_9_ios9"),
        ("ios9-safari", "safari_9_osx1011"),
        ("ios10-safari", "safari_10_ios10"), ("ios12.2", "safari_130_osx_10146"), ("ios15.4", "safari_154_osx_1231"),
        ("ios18", "safari_184_ios_184"), ("ios18", "safari_184_osx_154"), ("ios26", "safari_iOS_264"),
        ("ios26", "safari_264_all"),
    ]

    @Test(
        "the hello built from the profile equals the capture but for random, session id and key shares",
        arguments: cases)
    func equalsCapture(profileName: String, file: String) throws {
        let capture = try CapturedHello(file)
        let profile = try #require(HelloProfile.apple(named: profileName))
        let parsed = try CapturedHello.parse(capture.bytes)
        let built = try ClientHelloBuilder(
            profile: profile, serverName: parsed.serverName, grease: try capture.greaseValues() ?? .random()
        ).build()
        #expect(built.bytes.count == capture.bytes.count, "\(capture.name)")
        #expect(try CapturedHello.masked(built.bytes).hexString == CapturedHello.masked(capture.bytes).hexString)
    }

    @Test("the iOS 9 ATS hello is byte for byte the capture once its random is given")
    func ios9ATSExact() throws {
        // No session id, no key share, no GREASE: the random is the only per-connection value.
        let capture = try CapturedHello("apple_ats_9_ios9")
        let built = try ClientHelloBuilder(
            profile: .ios9URLSessionATS, serverName: "dev.ssllabs.com", random: Array(capture.bytes[11..<43]),
            sessionID: []
        ).build()
        #expect(built.bytes == capture.bytes)
        #expect(built.bytes.count == 203)
    }

    @Test("the iOS 26 hello carries a 1216-byte X25519MLKEM768 share and exceeds one 1460-byte segment")
    func ios26Sizes() throws {
        let built = try ClientHelloBuilder(profile: .ios26, serverName: "testssl.sh").build()
        #expect(built.keyShare(for: 0x11EC)?.publicBytes.count == 1216)
        #expect(built.handshakeMessage.count == 4 + 1524)  // the body is 1524 bytes
        #expect(built.bytes.count == 1533)
    }

    @Test("every Apple profile builds, and names are unique")
    func allBuild() throws {
        for profile in HelloProfile.apple {
            _ = try ClientHelloBuilder(profile: profile, serverName: "example.com").build()
            #expect(!profile.source.isEmpty)
        }
        #expect(Set(HelloProfile.apple.map(\.name)).count == HelloProfile.apple.count)
    }

    @Test(
        "iOS 26 URLSession built with an older SDK: iOS 26's hello with TLS 1.1 and 1.0 offered, nothing else changed")
    func ios26OlderSDK() throws {
        let older = HelloProfile.ios26URLSessionOlderSDK
        #expect(older.offeredVersions == [0x0304, 0x0303, 0x0302, 0x0301])
        #expect(HelloProfile.ios26URLSession.offeredVersions == [0x0304, 0x0303])
        #expect(older.source.hasPrefix("inferred:") && older.source.contains("Security-61901"))
        var same = older
        same.extensions = HelloProfile.ios26URLSession.extensions
        same.name = HelloProfile.ios26URLSession.name
        same.source = HelloProfile.ios26URLSession.source
        #expect(same == HelloProfile.ios26URLSession)
        let built = try ClientHelloBuilder(profile: older, serverName: "testssl.sh").build()
        #expect(built.bytes.count == 1533 + 4)  // two more versions of two bytes each
    }
}
