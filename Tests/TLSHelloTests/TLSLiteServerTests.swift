import Foundation
import TLSTestSupport
import Testing

@testable import TLSHello

/// The engine against tlslite-ng (a pure-Python TLS 1.3 server with ML-KEM from kyber-py): the X25519MLKEM768
/// handshake that Debian's OpenSSL 3.0 cannot do, proven by decapsulating the server's ciphertext and decrypting
/// EncryptedExtensions.
@Suite("TLSHello against tlslite-ng on loopback", .enabled(if: TLSLiteServer.isAvailable, TLSLiteServer.missing))
struct TLSLiteServerTests {
    @Test("X25519MLKEM768 is negotiated and proven")
    func hybridProven() throws {
        let server = try TLSLiteServer(groups: ["x25519mlkem768", "x25519"])
        defer { server.stop() }
        let hello = try ClientHelloBuilder(profile: .ios26, serverName: "localhost").build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello, timeout: 10)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.version == 0x0304 && facts.selectedGroup == 0x11EC)
        #expect(facts.keyShare?.count == 1088 + 32)
        let record = try #require(exchange.firstEncryptedRecord)
        #expect(
            TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record)
                == .proven(group: 0x11EC, cipherSuite: facts.cipherSuite))
        // The X25519 half alone is not enough: a forged share with a wrong ML-KEM ciphertext fails.
        var forged = facts
        forged.keyShare![0] ^= 0xFF
        #expect(!TLS13Proof.verify(hello: hello, serverHello: forged, firstEncryptedRecord: record).isProven)
    }

    @Test("a server without the hybrid picks x25519 from the same hello, proven too")
    func classicalFallback() throws {
        let server = try TLSLiteServer(groups: ["x25519"])
        defer { server.stop() }
        let hello = try ClientHelloBuilder(profile: .ios26, serverName: "localhost").build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello, timeout: 10)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        #expect(facts.selectedGroup == 0x001D)
        let record = try #require(exchange.firstEncryptedRecord)
        #expect(TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record).isProven)
    }

    @Test(
        "a probe offering one hybrid alone is answered with it, and proven",
        arguments: [(UInt16(0x11EC), "x25519mlkem768"), (0x11EB, "secp256r1mlkem768"), (0x11ED, "secp384r1mlkem1024")])
    func probeHybridOnly(group: UInt16, name: String) throws {
        let server = try TLSLiteServer(groups: [name, "x25519"])
        defer { server.stop() }
        let hello = try ClientHelloBuilder(profile: .probe(version: 0x0304, suites: [0x1301], groups: [group])).build()
        let exchange = try LoopbackExchange.run(port: server.port, hello: hello, timeout: 10)
        let facts = try #require(exchange.serverHello, "events: \(exchange.events)")
        let record = try #require(exchange.firstEncryptedRecord)
        #expect(
            TLS13Proof.verify(hello: hello, serverHello: facts, firstEncryptedRecord: record)
                == .proven(group: group, cipherSuite: 0x1301))
    }
}

/// tlslite-ng serving TLS 1.3 on 127.0.0.1 with the given groups, one connection at a time.
final class TLSLiteServer: @unchecked Sendable {  // immutable after init; the log is read after the exchange
    let port: Int
    private let process: ChildProcess
    private let folder: URL

    /// Whether python3 has tlslite-ng ≥ 0.8 with x25519mlkem768 and kyber-py.
    static let isAvailable: Bool = {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", "-c",
            "import kyber_py, tlslite; from tlslite.handshakesettings import CURVE_NAMES; "
                + "assert 'x25519mlkem768' in CURVE_NAMES",
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static let missing: Comment =
        "python3's tlslite-ng (0.8, with x25519mlkem768) and kyber-py are missing: `make deps` installs them"

    static let script = """
        import socket, sys
        from tlslite.api import TLSConnection, HandshakeSettings, X509, X509CertChain, parsePEMKey
        chain = X509CertChain([X509().parse(open(sys.argv[1]).read())])
        key = parsePEMKey(open(sys.argv[2]).read(), private=True)
        settings = HandshakeSettings()
        settings.minVersion = (3, 4)
        settings.maxVersion = (3, 4)
        settings.eccCurves = sys.argv[3].split(",")
        settings.keyShares = []  # the client's shares, for a client: a server answers with the share it is sent
        listener = socket.socket()
        listener.bind(("127.0.0.1", 0))
        listener.listen(8)
        print(listener.getsockname()[1], flush=True)
        while True:
            sock, _ = listener.accept()
            sock.settimeout(5)
            try:
                # alpn given: tlslite-ng 0.8.2 fails on a client's ALPN when the server has none
                TLSConnection(sock).handshakeServer(
                    certChain=chain, privateKey=key, settings=settings, alpn=[bytearray(b"http/1.1")])
            except Exception:
                pass  # the test reads only the server's first flight and closes
            finally:
                sock.close()
        """

    init(groups: [String]) throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("tlslite-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let leaf = TestPKI.sharedLocalhostChain[0]
        let certificate = folder.appendingPathComponent("cert.pem")
        let key = folder.appendingPathComponent("key.pem")
        try leaf.pem.write(to: certificate, atomically: true, encoding: .utf8)
        try leaf.key.pem.write(to: key, atomically: true, encoding: .utf8)
        process = try ChildProcess(
            "python3", ["-u", "-c", Self.script, certificate.path, key.path, groups.joined(separator: ",")],
            standardOutput: .pipe, standardError: .discard)
        var line = ""
        while !line.contains("\n"), let handle = process.standardOutput {
            let data = handle.availableData
            if data.isEmpty { break }
            line += String(decoding: data, as: UTF8.self)
        }
        guard let port = Int(line.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            process.stop()
            throw LoopbackExchange.SocketError(description: "tlslite-ng server did not start: \(line)")
        }
        self.port = port
    }

    func stop() {
        process.stop()
        try? FileManager.default.removeItem(at: folder)
    }
}
