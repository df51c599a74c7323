import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// The emulated network of issue 10: a delaying relay makes each handshake cost real round trips.
/// Only lower bounds are asserted (a delay is a guarantee; speed is not).
@Suite("Emulated latency")
struct LatencyRelayTests {
    static func elapsed(_ body: () -> TestTLSClient.Result?) -> (Double, TestTLSClient.Result?) {
        let start = ContinuousClock.now
        let result = body()
        let duration = ContinuousClock.now - start
        return (Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18, result)
    }

    @Test("a TLS 1.2 handshake costs connect + 2 round trips; TLS 1.3 connect + 1; the relay counts each connection")
    func roundTrips() throws {
        let server = try TestTLSServer(TLSServerConfiguration(minVersion: .tls1_2, maxVersion: .tls1_3))
        defer { server.stop() }
        let rtt = 0.05
        let relay = try FaultRelay.delaying(server, roundTrip: rtt)
        defer { relay.stop() }
        let (tls12, result12) = Self.elapsed {
            TestTLSClient.handshake(port: relay.port, minVersion: .tls1_2, maxVersion: .tls1_2)
        }
        #expect(result12?.version == "TLSv1.2")
        #expect(tls12 >= 3 * rtt * 0.95, "\(tls12) s")
        let (tls13, result13) = Self.elapsed { TestTLSClient.handshake(port: relay.port, minVersion: .tls1_3) }
        #expect(result13?.version == "TLSv1.3")
        #expect(tls13 >= 2 * rtt * 0.95, "\(tls13) s")
        #expect(relay.acceptedConnections == 2)
        #expect(server.acceptedConnections == 2)
    }
}
