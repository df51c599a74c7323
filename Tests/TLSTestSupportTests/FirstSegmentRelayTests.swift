import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// The first-segment relay (issue 36): OpenSSL's ClientHello, which fits one segment, is forwarded and the handshake
/// completes through it; a hello cut into two writes is refused after the first (the split itself is shown with
/// Apple's hellos in TLSProbeTests' HelloSizeProbeTests).
@Suite("First-segment relay")
struct FirstSegmentRelayTests {
    @Test("a one-segment ClientHello is forwarded and answered by the real server")
    func forwardsWholeHello() throws {
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: .tls1_2, maxVersion: .tls1_3))
        defer { server.stop() }
        let relay = try FirstSegmentRelay(in: server)
        defer { relay.stop() }
        let result = TestTLSClient.handshake(port: relay.port, minVersion: .tls1_3)
        #expect(result?.version == "TLSv1.3")
        #expect(relay.forwardedConnections == 1 && relay.refusedConnections == 0)
        let first = try #require(relay.firstReads.first)
        #expect(first > 100 && first < 1_400, "OpenSSL's hello: \(first) bytes")
        #expect(server.acceptedConnections == 1)
    }

    @Test(
        "the whole-hello check",
        arguments: [
            ([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x01, 0xAA], true),
            ([0x16, 0x03, 0x01, 0x00, 0x06, 0x01, 0x00, 0x00, 0x02, 0xAA], false),  // the record cut short
            ([0x16, 0x03, 0x01, 0x00, 0x05, 0x01, 0x00, 0x00, 0x09, 0xAA], false),  // a message longer than its record
            ([0x47, 0x45, 0x54, 0x20, 0x2F, 0x20, 0x48, 0x54, 0x54, 0x50], false),  // not TLS
        ] as [([UInt8], Bool)])
    func wholeHello(_ bytes: [UInt8], whole: Bool) {
        #expect(FirstSegmentRelay.holdsWholeHello(bytes) == whole)
    }
}
