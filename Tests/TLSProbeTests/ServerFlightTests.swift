import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A probe's handshake stops once the server's first flight is read and checked, before the client's key
/// exchange (``ServerFlight``, or before a DHE ServerKeyExchange: ``DHEKeyExchangeGate``): every fact the
/// report holds is known by then, and the client is spared the shared secret it would never use (and, for
/// a DHE suite, OpenSSL's check of the server's public value). These tests check that
/// the stop happened where it should and that nothing the report reads was lost to it.
@Suite("Handshakes stop after the server's first flight")
struct ServerFlightTests {
    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var version: TLSVersion
        var cipher: String  // OpenSSL name (≤ 1.2) or IANA name (1.3)
        var group: String?
        var staple = false
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "TLS 1.2 DHE", version: .tls1_2, cipher: "DHE-RSA-AES128-GCM-SHA256", group: "DH-2048"),
        Case(
            name: "TLS 1.2 DHE, stapled", version: .tls1_2, cipher: "DHE-RSA-AES256-GCM-SHA384", group: "DH-2048",
            staple: true),
        Case(
            name: "TLS 1.2 ECDHE, stapled", version: .tls1_2, cipher: "ECDHE-RSA-AES256-GCM-SHA384", group: "X25519",
            staple: true),
        Case(name: "TLS 1.2 RSA key exchange", version: .tls1_2, cipher: "AES128-SHA256", group: nil),
        Case(name: "TLS 1.0 DHE", version: .tls1_0, cipher: "DHE-RSA-AES256-SHA", group: "DH-2048"),
        Case(name: "TLS 1.3", version: .tls1_3, cipher: "TLS_CHACHA20_POLY1305_SHA256", group: "X25519", staple: true),
    ]

    @Test("the handshake ends at the server's flight with version, suite, group, chain and staple", arguments: cases)
    func stopsWithEveryFact(_ c: Case) async throws {
        let staple = Data([0x30, 0x03, 0x0A, 0x01, 0x00])  // any bytes: the probe only notes that one came
        let isTLS13 = c.version == .tls1_3
        let server = try TestTLSServer(
            TLSServerConfiguration(
                minVersion: c.version, maxVersion: c.version, cipherList: isTLS13 ? nil : c.cipher,
                tls13CipherSuites: isTLS13 ? c.cipher : nil, ocspStaple: c.staple ? staple : nil))
        defer { server.stop() }
        let (context, offer) = try VersionEnumerator.prepareNow(c.version).get()
        let addresses = try SocketAddress.resolve(server.host, port: server.port)
        let legacy = isTLS13 ? [] : offer
        let tls13 = isTLS13 ? offer.map(\.suite) : []
        // On an event loop, as the prober runs it: its socket waits never need a thread of the cooperative pool,
        // which the other cases' blocking server set-up and tear-down may be holding.
        let result = await withTaskExecutorPreference(EventLoopGroup.shared.next()) {
            await Handshaker(sni: "localhost").run(
                context: context, legacySuites: legacy, tls13Suites: tls13, addresses: addresses,
                deadline: .after(seconds: 5))
        }
        let accepted = try #require(result.accepted, "\(result.outcome)")
        #expect(accepted.version == c.version)
        #expect(accepted.openSSLName == c.cipher || accepted.suite.ianaName == c.cipher, "\(accepted.openSSLName)")
        #expect(accepted.group == c.group)
        #expect(accepted.chainDER.count == 2, "leaf and intermediate, as sent")
        #expect(accepted.ocspStapled == c.staple)
        // Stopped by the status callback, not by a handshake that ran to its end (TLS 1.3 can).
        let stopped = result.stoppedAtServerFlight
        #expect(stopped)
    }

    @Test("a refusal is reported as a refusal, not as a stop")
    func refusalIsNotAStop() async throws {
        let server = try TestTLSServer(.only(.tls1_2, cipherList: "ECDHE-RSA-AES128-GCM-SHA256"))
        defer { server.stop() }
        let (context, offer) = try VersionEnumerator.prepareNow(.tls1_2).get()
        let addresses = try SocketAddress.resolve(server.host, port: server.port)
        let result = await withTaskExecutorPreference(EventLoopGroup.shared.next()) {
            await Handshaker(sni: "localhost").run(
                context: context, legacySuites: offer.filter { $0.openSSLName.hasPrefix("DHE-") }, tls13Suites: [],
                addresses: addresses, deadline: .after(seconds: 5))
        }
        guard case .refused(let refusal) = result.outcome else {
            Issue.record("expected a refusal, got \(result.outcome)")
            return
        }
        #expect(refusal.alert == .handshakeFailure, "\(refusal)")
        let stopped = result.stoppedAtServerFlight
        #expect(!stopped)
    }
}
