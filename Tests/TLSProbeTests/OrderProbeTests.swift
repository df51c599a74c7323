import TLSModel
import Testing

@testable import TLSProbe

/// The offer that tells server order from client order (issue 35): it begins as an Apple client's offer does,
/// with AES-GCM, so a server that looks at the client's first suite (Go's crypto/tls) meets the order an Apple
/// client meets; and it offers the first choice last, so a server that follows the client picks another suite.
@Suite("Server-order probe offer")
struct OrderProbeTests {
    static func offered(_ codes: [UInt16]) -> [OfferedSuite] {
        codes.map { OfferedSuite(suite: CipherSuite($0), openSSLName: CipherSuite($0).info?.openSSLName ?? "") }
    }

    @Test("ECDHE AES-GCM suites first (reversed), then RSA AES-GCM, then the rest reversed, the first choice last")
    func shape() {
        // OpenSSL's order: C02C C030 CCA9 CCA8 C02B C02F C024 C028 C00A C014 009D 002F.
        let offer = Self.offered([
            0xC02C, 0xC030, 0xCCA9, 0xCCA8, 0xC02B, 0xC02F, 0xC024, 0xC028, 0xC00A, 0xC014, 0x009D, 0x002F,
        ])
        let probe = SuiteSearch.orderProbe(offer, first: CipherSuite(0xC02F)).map(\.suite.rawValue)
        #expect(
            probe == [0xC02B, 0xC030, 0xC02C, 0x009D, 0x002F, 0xC014, 0xC00A, 0xC028, 0xC024, 0xCCA8, 0xCCA9, 0xC02F])
        #expect(probe.count == offer.count)
    }

    @Test("TLS 1.3: an AES-GCM suite first when the first choice is not the only one")
    func tls13() {
        let offer = Self.offered([0x1302, 0x1303, 0x1301])
        #expect(
            SuiteSearch.orderProbe(offer, first: CipherSuite(0x1302)).map(\.suite.rawValue) == [0x1301, 0x1303, 0x1302])
        #expect(
            SuiteSearch.orderProbe(offer, first: CipherSuite(0x1301)).map(\.suite.rawValue) == [0x1302, 0x1303, 0x1301])
    }
}
