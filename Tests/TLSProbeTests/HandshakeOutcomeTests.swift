import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A handshake's outcome says what happened as data (``HandshakeResult/Outcome``): the alert a server refused with,
/// a FIN told from an RST and the bytes before it, a silence, a peer that is not TLS; and each keeps the report's
/// words of before.
@Suite("Handshake outcomes are typed")
struct HandshakeOutcomeTests {
    /// One handshake offering every suite `version` can offer to `host:port`, on an event loop as the prober runs it.
    static func handshake(_ version: TLSVersion, host: String, port: Int, timeout: Double = 5) async throws
        -> HandshakeResult
    {
        let (context, offer) = try VersionEnumerator.prepareNow(version).get()
        let addresses = try SocketAddress.resolve(host, port: port)
        let isTLS13 = version == .tls1_3
        return await withTaskExecutorPreference(EventLoopGroup.shared.next()) {
            await Handshaker(sni: "localhost").run(
                context: context, legacySuites: isTLS13 ? [] : offer, tls13Suites: isTLS13 ? offer.map(\.suite) : [],
                addresses: addresses, deadline: .after(seconds: timeout))
        }
    }

    struct AlertCase: Sendable, CustomStringConvertible {
        var description: String
        var server: TLSServerConfiguration
        var offered: TLSVersion
        var alert: AlertDescription
        /// OpenSSL's words for the alert, which the report quotes.
        var said: String
    }

    static let alertCases: [AlertCase] = [
        AlertCase(
            description: "no common suite: handshake_failure",
            server: .only(.tls1_2, cipherList: "ECDHE-ECDSA-AES128-GCM-SHA256"), offered: .tls1_2,
            alert: .handshakeFailure, said: "handshake failure"),
        AlertCase(
            description: "TLS 1.3 offered to a TLS 1.2 server: protocol_version",
            server: .only(.tls1_2), offered: .tls1_3, alert: .protocolVersion, said: "protocol version"),
        AlertCase(
            description: "TLS 1.2 offered to a TLS 1.3 server: protocol_version",
            server: .only(.tls1_3), offered: .tls1_2, alert: .protocolVersion, said: "protocol version"),
    ]

    @Test("a refusal keeps the alert the server sent", arguments: alertCases)
    func alertIsKept(_ c: AlertCase) async throws {
        let server = try TestTLSServer(c.server)
        defer { server.stop() }
        let result = try await Self.handshake(c.offered, host: server.host, port: server.port)
        guard case .refused(let refusal) = result.outcome else {
            Issue.record("expected a refusal, got \(result.outcome)")
            return
        }
        #expect(refusal.alert == c.alert, "\(refusal)")
        let reason = refusal.reason
        #expect(reason.hasPrefix("server sent alert: ") && reason.contains(c.said), "\(reason)")
        #expect(result.outcome.detail == reason)
        #expect(!result.isDrop)
    }

    @Test("a ServerHello for a version not offered is a decline, told by OpenSSL's reason code")
    func declined() async throws {
        let server = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA:AES256-SHA"))
        defer { server.stop() }
        let result = try await Self.handshake(.tls1_2, host: server.host, port: server.port)
        guard case .refused(.declined(let why)) = result.outcome else {
            Issue.record("expected a decline, got \(result.outcome)")
            return
        }
        #expect(why.contains("unsupported protocol") || why.contains("wrong ssl version"), "\(why)")
        #expect(result.outcome.detail == why)
    }

    @Test("alert codes are named as the registry names them, and unknown codes still print")
    func alertNames() {
        #expect(AlertDescription.handshakeFailure.description == "handshake_failure (40)")
        #expect(AlertDescription.protocolVersion.name == "protocol_version")
        #expect(AlertDescription.insufficientSecurity.rawValue == 71)
        #expect(AlertDescription.unrecognizedName.name == "unrecognized_name")
        #expect(AlertDescription(rawValue: 200).name == nil)
        #expect(AlertDescription(rawValue: 200).description == "alert 200")
    }

    @Test("a close (FIN) and a reset (RST) before any answer are told apart")
    func closeVersusReset() async throws {
        let server = try TestTLSServer(.only(.tls1_2))
        defer { server.stop() }
        // Each relay drops its first connection (the only one made here) before forwarding a byte.
        let closing = try FaultRelay(in: server, fault: .closeEveryOther)
        defer { closing.stop() }
        let resetting = try FaultRelay(in: server, fault: .resetEveryOther)
        defer { resetting.stop() }

        let closed = try await Self.handshake(.tls1_2, host: closing.host, port: closing.port)
        guard case .dropped(let fin) = closed.outcome else {
            Issue.record("expected a drop, got \(closed.outcome)")
            return
        }
        #expect(fin.signal == .closed && fin.afterBytes == 0 && fin.isSilent)
        #expect(fin.reason == "server closed the connection without answering")
        #expect(closed.isDrop && closed.closedSilently)

        let reset = try await Self.handshake(.tls1_2, host: resetting.host, port: resetting.port)
        guard case .dropped(let rst) = reset.outcome else {
            Issue.record("expected a drop, got \(reset.outcome)")
            return
        }
        // The reset can be seen when the connect completes, on the ClientHello's send, or on the read.
        #expect(rst.signal == .reset && rst.afterBytes == 0, "\(rst)")
        #expect(rst.reason.contains("reset") || rst.reason.contains("while sending"), "\(rst.reason)")
        #expect(reset.isDrop && reset.closedSilently)
    }

    @Test("a handshake cut off mid-way says after how many bytes")
    func truncated() async throws {
        let server = try TestTLSServer(.only(.tls1_2))
        defer { server.stop() }
        let relay = try FaultRelay(in: server, fault: .truncateEveryOther(afterBytes: 200))
        defer { relay.stop() }
        let result = try await Self.handshake(.tls1_2, host: relay.host, port: relay.port)
        guard case .dropped(let drop) = result.outcome else {
            Issue.record("expected a drop, got \(result.outcome)")
            return
        }
        #expect(drop.signal == .closed && drop.afterBytes == 200 && !drop.isSilent)
        #expect(drop.reason == "server closed the connection mid-handshake after 200 bytes")
        #expect(result.isDrop && !result.closedSilently)
    }

    @Test("a peer that never answers is silent, not dropped")
    func silence() async throws {
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let result = try await Self.handshake(.tls1_2, host: "127.0.0.1", port: peer.port, timeout: 0.3)
        guard case .silent(let silence) = result.outcome else {
            Issue.record("expected a silence, got \(result.outcome)")
            return
        }
        #expect(silence.phase == .handshake && silence.afterBytes == 0)
        #expect(silence.reason == "no answer to the ClientHello before the deadline")
        #expect(result.isDrop && !result.closedSilently)
    }

    @Test("a peer that answers in HTTP is not TLS, and its first bytes are kept")
    func plainHTTP() async throws {
        let peer = try HostilePeer(.plainHTTP)
        defer { peer.stop() }
        let result = try await Self.handshake(.tls1_2, host: "127.0.0.1", port: peer.port)
        guard case .notTLS(let bytes) = result.outcome else {
            Issue.record("expected not TLS, got \(result.outcome)")
            return
        }
        #expect(bytes.kind == .http)
        #expect(bytes.bytes.starts(with: Array("HTTP/1.1".utf8)), "\(bytes.bytes)")
        #expect(bytes.description.hasPrefix("not TLS: the server answered in plain HTTP (HTTP/1.1"), "\(bytes)")
        #expect(!result.isDrop)
    }

    @Test(
        "what a peer sent instead of TLS is named by kind, in the report's words",
        arguments: [
            // At most 16 bytes, as the prober keeps.
            (Array("HTTP/1.1 200 OK\r".utf8), PeerBytes.Kind.http, "answered in plain HTTP (HTTP/1.1 200 OK)"),
            (Array("SSH-2.0-OpenSSH_".utf8), .text, "answered in plain text (SSH-2.0-OpenSSH_)"),
            (Array("220 smtp\u{0}".utf8), .banner, "sent a plain-text banner (220 smtp\u{0})"),
            ([0x00, 0xff, 0x10], .bytes, "sent bytes that are not a TLS record (00 ff 10)"),
            // A line ended by CRLF inside the 16 bytes is cut before the break (Swift's "\r\n" is one Character).
            (Array("HTTP/1.0 200\r\nX".utf8), .http, "answered in plain HTTP (HTTP/1.0 200)"),
            (Array("+OK ready\r\n".utf8), .text, "answered in plain text (+OK ready)"),
        ])
    func peerBytes(_ bytes: [UInt8], kind: PeerBytes.Kind, words: String) {
        let peer = PeerBytes(bytes: bytes)
        #expect(peer.kind == kind)
        #expect(peer.description == "not TLS: the server \(words)")
    }

    @Test("a step that gave up says how often it was tried, and whether every attempt was closed silently")
    func gaveUp() {
        let silent = HandshakeResult.Outcome.dropped(.init(signal: .closed, afterBytes: 0))
        let everyTime = EndpointSession.gaveUp(silent, attempts: 3, silentCloses: 3)
        guard case .dropped(let all) = everyTime else {
            Issue.record("expected a drop, got \(everyTime)")
            return
        }
        #expect(all.everyAttemptSilent && all.attempts == 3)
        #expect(all.reason == "server closed the connection every time (3 attempts): could not tell")

        let mixed = EndpointSession.gaveUp(silent, attempts: 3, silentCloses: 2)
        guard case .dropped(let some) = mixed else {
            Issue.record("expected a drop, got \(mixed)")
            return
        }
        #expect(!some.everyAttemptSilent)
        #expect(some.reason == "server closed the connection without answering (no answer in 3 attempts)")

        let stalled = HandshakeResult.Outcome.silent(.init(phase: .handshake, afterBytes: 7))
        #expect(
            EndpointSession.gaveUp(stalled, attempts: 2, silentCloses: 0).detail
                == "handshake stalled after 7 bytes (no answer in 2 attempts)")
        // One attempt: the outcome as it was.
        #expect(EndpointSession.gaveUp(silent, attempts: 1, silentCloses: 1).detail == silent.detail)
    }
}
