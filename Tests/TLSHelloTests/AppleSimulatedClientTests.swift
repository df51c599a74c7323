import Testing

@testable import TLSHello

/// The Apple clients a scan simulates: one per era, newest first, with what each offers.
@Suite("Apple simulated clients")
struct AppleSimulatedClientTests {
    @Test("the eras, newest first: iOS 26, 18, 17, 15.4, 14 and 12.2, each with its own profile")
    func eras() {
        let clients = AppleSimulatedClient.simulated
        #expect(clients.map(\.osVersion) == ["26", "18", "17", "15.4", "14", "12.2"])
        #expect(clients.map(\.name).first == "iOS 26 (URLSession)")
        #expect(Set(clients.map(\.profile.name)).count == clients.count)
        #expect(AppleSimulatedClient.newest.profile.name == "ios26-urlsession")
    }

    @Test("Safari 26 is not simulated apart: its hello equals the iOS 26 SDK's URLSession hello field for field")
    func safariDeduplicated() throws {
        let safari = try #require(AppleSimulatedClient.eras.first { $0.kind == .safari })
        #expect(safari.sendsSameHello(as: AppleSimulatedClient.newest))
        var different = safari
        different.profile.extensions = different.profile.extensions.map {
            if case .supportedVersions = $0 { return .supportedVersions([0x0304, 0x0303, 0x0302, 0x0301]) }
            return $0
        }
        #expect(!different.sendsSameHello(as: AppleSimulatedClient.newest))
    }

    @Test("iOS 17 is iOS 15.4's hello, ecdsa_sha1 included, and differs from iOS 18 only there; it is marked inferred")
    func ios17() {
        let ios17 = HelloProfile.ios17
        #expect(ios17.signatureAlgorithms.contains(0x0203))
        #expect(!HelloProfile.ios18.signatureAlgorithms.contains(0x0203))
        #expect(ios17.cipherSuites == HelloProfile.ios18.cipherSuites)
        #expect(ios17.signatureAlgorithms.filter { $0 != 0x0203 } == HelloProfile.ios18.signatureAlgorithms)
        let client = AppleSimulatedClient.simulated.first { $0.osVersion == "17" }
        #expect(client?.evidence == "inferred")
        #expect(AppleSimulatedClient.simulated.first { $0.osVersion == "18" }?.evidence == "exact")
    }

    @Test("offered versions and suites leave GREASE and the SCSV out")
    func offered() throws {
        let ios26 = AppleSimulatedClient.newest
        #expect(ios26.offeredVersions == [0x0304, 0x0303])
        #expect(ios26.offeredSuites.first == 0x1302 && !ios26.offeredSuites.contains { $0 & 0x0F0F == 0x0A0A })
        let ios12 = try #require(AppleSimulatedClient.simulated.last)
        #expect(ios12.offeredVersions == [0x0304, 0x0303, 0x0302, 0x0301])
        #expect(HelloProfile.ios9URLSessionATS.offeredVersions == [0x0303, 0x0302, 0x0301])
        let ios9 = AppleSimulatedClient(osVersion: "9", kind: .urlSession, profile: .ios9URLSessionATS)
        #expect(!ios9.offeredSuites.contains(0x00FF) && ios9.offeredSuites.count == 11)
    }
}
