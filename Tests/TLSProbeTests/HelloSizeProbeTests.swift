import Foundation
import TLSHello
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// ClientHello size tolerance (issue 36): the iOS 26 hello in two TCP segments against the iOS 18 hello in one, on
/// a server that reads the first segment once (``FirstSegmentRelay``) and on servers that read a record whole.
@Suite("ClientHello size tolerance", .serialized)
struct HelloSizeProbeTests {
    /// The probe of `port` on 127.0.0.1, run on an event loop as the prober runs it.
    static func probe(port: Int, sni: String? = "localhost") async throws -> HelloSizeProbe.Result {
        let probe = HelloSizeProbe(
            addresses: try SocketAddress.resolve("127.0.0.1", port: port), tunnel: nil, sni: sni)
        return await withTaskExecutorPreference(EventLoopGroup.shared.next()) {
            await probe.run(deadline: { Deadline.after(seconds: 5) })
        }
    }

    /// One attempt of `profile` on `port`, split or whole.
    static func attempt(_ profile: HelloProfile, split: Bool, port: Int) async throws -> HelloSizeAttempt {
        let addresses = try SocketAddress.resolve("127.0.0.1", port: port)
        return await withTaskExecutorPreference(EventLoopGroup.shared.next()) {
            await HelloSizeAttempt.run(
                profile, split: split, addresses: addresses, tunnel: nil, sni: "localhost",
                deadline: Deadline.after(seconds: 5))
        }
    }

    /// A full scan of `port` on 127.0.0.1 as `localhost`.
    static func scan(port: Int, scope: ProbeScope = .full) async throws -> ServerProfile {
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(port)"), connectAddress: "127.0.0.1", timeout: 3, deadline: 60,
            caFiles: [try ProbeFixtures.caFile()])
        request.scope = scope
        return await TLSProber(perHostLimit: 3).scan(request)
    }

    @Test("two writes with a pause arrive as two reads: the first-segment server sees only the first part")
    func splitArrivesInTwoReads() async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let relay = try FirstSegmentRelay(in: server)
        defer { relay.stop() }

        let split = try await Self.attempt(HelloSizeProbe.splitProfile, split: true, port: relay.port)
        #expect(split.helloBytes > 1_500, "the iOS 26 hello is \(split.helloBytes) bytes")
        #expect(split.firstWrite == HelloSizeAttempt.firstSegment)
        #expect(relay.firstReads == [HelloSizeAttempt.firstSegment])
        #expect(split.outcome == .dropped && split.detail == "the connection is closed", "\(split.detail)")

        let single = try await Self.attempt(HelloSizeProbe.singleProfile, split: false, port: relay.port)
        #expect(single.helloBytes < HelloSizeAttempt.firstSegment)
        #expect(relay.firstReads == [HelloSizeAttempt.firstSegment, single.helloBytes])
        #expect(single.outcome == .negotiated, "\(single.detail)")
        #expect(single.detail.hasPrefix("TLSv1.3, TLS_"), "\(single.detail)")
        #expect(relay.refusedConnections == 1 && relay.forwardedConnections == 1)

        // The same hello in one write reaches the server whole, and is answered: only the split fails.
        let whole = try await Self.attempt(HelloSizeProbe.splitProfile, split: false, port: relay.port)
        #expect(relay.firstReads.last == whole.helloBytes)
        #expect(whole.outcome == .negotiated, "\(whole.detail)")
    }

    @Test(
        "a server that reads the first segment once is intolerant: the split hello is dropped, the single one answered",
        arguments: [FirstSegmentRelay.Refusal.close, .reset])
    func intolerant(_ refusal: FirstSegmentRelay.Refusal) async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let relay = try FirstSegmentRelay(in: server, refusal: refusal)
        defer { relay.stop() }

        let result = try await Self.probe(port: relay.port)
        let tolerance = result.tolerance
        #expect(tolerance.tolerant == false)
        #expect(tolerance.split == .dropped && tolerance.single == .negotiated)
        let said = refusal == .close ? "closed" : "reset"
        #expect(
            tolerance.detail?.hasPrefix(
                "the iOS 26 ClientHello in two TCP segments fails: the connection is \(said) after the first segment "
                    + "of the ClientHello (1400 of ") == true, "\(tolerance.detail ?? "")")
        #expect(tolerance.detail?.contains("the iOS 18 ClientHello in one segment") == true)
        // The split hello, the single one, and two retries of the split after its drops: four connections, the two
        // retries counted as retries, the three split ones as drops.
        #expect(result.connections == 4 && result.retries == 2 && result.drops == 3)
        #expect(relay.refusedConnections == 3 && relay.forwardedConnections == 1)
    }

    @Test("a server that refuses iOS 26's offer with an alert read the whole hello: tolerant, the refusal said")
    func refusedInTLS() async throws {
        // TLS 1.0 only: iOS 26 offers TLS 1.2–1.3 and is refused with protocol_version; iOS 18 still offers TLS 1.0.
        let server = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA"))
        defer { server.stop() }
        let result = try await Self.probe(port: server.port)
        #expect(result.tolerance.tolerant == true)
        #expect(result.tolerance.split == .refused && result.tolerance.single == .negotiated)
        #expect(result.tolerance.detail?.contains("protocol_version") == true, "\(result.tolerance.detail ?? "")")
        #expect(result.connections == 2 && result.retries == 0)
    }

    @Test(
        "a relay that drops every other connection is not taken for an intolerant server",
        arguments: [RelayFault.closeEveryOther, .resetEveryOther])
    func everyOther(_ fault: RelayFault) async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        for offset in 0..<2 {  // the split hello on a dropped connection, then on a forwarded one
            let relay = try FaultRelay(in: server, fault: fault)
            defer { relay.stop() }
            if offset == 1 { _ = TestTLSClient.handshake(port: relay.port) }  // uses up connection 0
            let result = try await Self.probe(port: relay.port)
            #expect(result.tolerance.tolerant == true, "\(fault) \(offset): \(result.tolerance)")
            #expect(result.tolerance.split == .negotiated && result.tolerance.single == .negotiated)
            // Offset 0: the split hello dropped, the single answered, the split dropped again and then answered.
            // Offset 1: the split answered, the single dropped and then answered.
            let retried = offset == 0 ? 2 : 1
            #expect(result.retries == retried && result.drops == retried, "\(fault) \(offset)")
        }
    }

    @Test("a full scan records the tolerance and counts its connections")
    func fullScan() async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let profile = try await Self.scan(port: server.port)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        #expect(
            profile.helloSizeTolerance == HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true))
        // Every connection is counted: the handshakes, the size check's two among them, and any opened ahead unused.
        #expect(profile.connections == server.acceptedConnections)

        // An ats-only scan has no room for it.
        let quick = try await Self.scan(port: server.port, scope: .atsOnly)
        #expect(quick.helloSizeTolerance == nil)
    }

    @Test("a full scan through the first-segment relay says intolerant")
    func fullScanIntolerant() async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let relay = try FirstSegmentRelay(in: server, refusal: .reset)
        defer { relay.stop() }
        let profile = try await Self.scan(port: relay.port)
        #expect(profile.supportedVersions.contains(.tls1_3))
        let tolerance = try #require(profile.helloSizeTolerance)
        #expect(tolerance.tolerant == false && tolerance.split == .dropped && tolerance.single == .negotiated)
    }

    @Test(
        "servers that read the record whole are tolerant", .enabled(if: GnuTLSServe.binary != nil, "no gnutls-serv"))
    func gnutlsServe() async throws {
        let server = try GnuTLSServe.start(priority: "NORMAL")
        defer { server.stop() }
        let result = try await Self.probe(port: server.port)
        #expect(result.tolerance == HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true))
        #expect(result.connections == 2 && result.retries == 0 && result.drops == 0)
    }

    @Test("tlslite-ng is tolerant", .enabled(if: TLSLiteServer.isInstalled, "tlslite-ng is not installed"))
    func tlslite() async throws {
        let server = try TLSLiteServer.start(
            versions: "1.2"..."1.3", groups: ["x25519mlkem768", "x25519"], ciphers: ["aes128gcm", "aes256gcm"])
        defer { server.stop() }
        let result = try await Self.probe(port: server.port)
        #expect(result.tolerance == HelloSizeTolerance(split: .negotiated, single: .negotiated, tolerant: true))
        // The split hello arrives intact: its X25519MLKEM768 key share is the one the server takes.
        let split = try await Self.attempt(HelloSizeProbe.splitProfile, split: true, port: server.port)
        #expect(split.outcome == .negotiated && split.detail.hasSuffix(", X25519MLKEM768"), "\(split.detail)")
    }
}
