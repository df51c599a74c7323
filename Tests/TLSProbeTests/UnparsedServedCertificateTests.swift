import CertificateTrust
import Foundation
import Synchronization
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A served certificate that does not parse is reported, never dropped (issue 34): the prober's certificate report
/// of a handshake's chain names it with its position and OpenSSL's reason.
@Suite("Unreadable served certificates")
struct UnparsedServedCertificateTests {
    static let pki = try! TestPKI.make(name: "unparsed-served")

    @Test("the prober's report of a handshake's chain names the certificate OpenSSL could not read")
    func handshakeChain() throws {
        let ca = TestScratch.file("atscheck-unparsed-served", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
        let trust = try TrustStoreSet(source: .none, caFiles: [ca], useSystemStore: false)
        let leaf = try Self.pki.leaf(.leaf("localhost"))
        let garbage: [UInt8] = [0x30, 0x82, 0x01, 0x00, 0x02]  // a SEQUENCE that claims 256 bytes and holds 1
        let accepted = HandshakeResult.Accepted(
            version: .tls1_2, suite: CipherSuite(0xC02F), openSSLName: "ECDHE-RSA-AES128-GCM-SHA256", group: nil,
            groupBits: nil, chainDER: [[UInt8](leaf.der), garbage, [UInt8](Self.pki.intermediate.der)],
            ocspStapled: false)
        let request = ProbeRequest(target: try Target(parsing: "localhost:443"), timeout: 1)
        let report = TLSProber.certificateReport(accepted, request: request, trust: trust)
        #expect(report.unparsedCertificates?.map(\.position) == [2])
        #expect(report.unparsedCertificates?.first?.origin == .served)
        #expect(report.unparsedCertificates?.first?.der == Data(garbage))
        #expect(report.unparsedCertificates?.first?.reason.lowercased().contains("asn1") == true)
        #expect(report.chain.count == 2)
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
    }
}

extension UnparsedServedCertificateTests {
    /// What a real server's chain with a certificate that does not parse does to a scan: a relay in front of a TLS 1.2
    /// server turns the intermediate of every Certificate message into bytes OpenSSL cannot read, keeping every length.
    /// OpenSSL's client refuses such a chain inside the handshake (it parses each certificate of the message), so no
    /// chain reaches the certificate report: the scan is an error with OpenSSL's reason, and TLS 1.2 is unknown, not
    /// judged on a shorter chain. The same relay changing nothing (certificate 9 of 2) scans as the server.
    @Test(
        "a live server whose chain holds a certificate OpenSSL cannot read: the scan says why, it does not judge less",
        arguments: [1, 9])
    func liveServer(_ corrupting: Int) async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        let server = try TestTLSServer(.only(.tls1_2, chain: Self.pki.chain(for: leaf)))
        defer { server.stop() }
        let relay = try CertificateCorruptingRelay(upstreamPort: server.port, certificate: corrupting)
        defer { relay.stop() }
        let ca = TestScratch.file("atscheck-unparsed-live", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(relay.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 20, caFiles: [ca])
        let profile = await TLSProber(perHostLimit: 2).scan(request)
        let tls12 = profile.protocols.first { $0.version == .tls1_2 }
        if corrupting == 1 {
            #expect(relay.corrupted > 0, "the relay never saw a Certificate message")
            #expect(profile.status == .error)
            #expect(profile.error?.contains("ASN1") == true, "\(profile.error ?? "nil")")
            #expect(tls12?.supported == nil)
            #expect(tls12?.reason?.contains("ASN1") == true, "\(tls12?.reason ?? "nil")")
            #expect(profile.certificate == nil, "no chain was judged")
        } else {
            #expect(relay.corrupted == 0)
            #expect(profile.status == .completed, "\(profile.error ?? "")")
            #expect(tls12?.supported == true)
            #expect(profile.certificate?.chain.map(\.der) == [leaf.der, Self.pki.intermediate.der])
            #expect(profile.certificate?.unparsedCertificates == nil)
            #expect(profile.certificate?.trusted == true)
        }
    }
}

/// A loopback relay in front of a TLS ≤ 1.2 server that changes the first byte of certificate `index` (0 is the leaf)
/// in the server's Certificate message from SEQUENCE (0x30) to SET (0x31): every length stays as sent, so the TLS
/// framing is valid and only that certificate no longer parses.
///
/// > Warning: Starts threads and listens on 127.0.0.1 until ``stop()``.
final class CertificateCorruptingRelay: Sendable {
    let port: Int
    private let listener: Int32
    private let count = Mutex(0)

    /// How many Certificate messages were changed.
    var corrupted: Int { count.withLock { $0 } }

    init(upstreamPort: Int, certificate index: Int) throws {
        let listening = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(listening, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0, listen(listening, 64) == 0 else {
            close(listening)
            throw POSIXError(.EADDRINUSE)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listening, $0, &length) }
        }
        listener = listening
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in
            while true {
                let client = accept(listening, nil, nil)
                guard client >= 0 else { return }
                Thread { self.relay(client, upstreamPort: upstreamPort, index: index) }.start()
            }
        }.start()
    }

    /// Stops accepting (the connections in flight end with their peers).
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        return address
    }

    private func relay(_ client: Int32, upstreamPort: Int, index: Int) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: upstreamPort)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(client)
            close(server)
            return
        }
        let upstreamDone = DispatchSemaphore(value: 0)
        Thread {
            Self.pump(from: client, to: server) { $0 }
            upstreamDone.signal()
        }.start()
        var pending: [UInt8] = []
        var done = false
        Self.pump(from: server, to: client) { bytes in
            if done { return bytes }
            pending += bytes
            var out: [UInt8] = []
            // Whole records only: a handshake record's messages are looked at, anything else passes as sent.
            while pending.count >= 5 {
                let length = Int(pending[3]) << 8 | Int(pending[4])
                guard pending.count >= 5 + length else { break }
                var record = Array(pending[0..<(5 + length)])
                pending.removeFirst(5 + length)
                if record[0] == 22, Self.corrupt(&record, index: index) {
                    count.withLock { $0 += 1 }
                    done = true
                }
                out += record
            }
            if done {
                out += pending
                pending = []
            }
            return out
        }
        upstreamDone.wait()
        close(client)
        close(server)
    }

    /// Changes certificate `index` of a Certificate message whole in `record`; whether there was one.
    private static func corrupt(_ record: inout [UInt8], index: Int) -> Bool {
        var offset = 5
        while offset + 4 <= record.count {
            let length = Int(record[offset + 1]) << 16 | Int(record[offset + 2]) << 8 | Int(record[offset + 3])
            guard offset + 4 + length <= record.count else { return false }
            if record[offset] == 11 {
                let end = offset + 4 + length
                var cursor = offset + 4 + 3  // the certificate_list's length
                for _ in 0..<index where cursor + 3 <= end {
                    let entry = Int(record[cursor]) << 16 | Int(record[cursor + 1]) << 8 | Int(record[cursor + 2])
                    cursor += 3 + entry
                }
                guard cursor + 3 < end, record[cursor + 3] == 0x30 else { return false }
                record[cursor + 3] = 0x31
                return true
            }
            offset += 4 + length
        }
        return false
    }

    /// Copies `from` to `to` through `transform` until `from` ends, then ends `to`'s writing side.
    private static func pump(from: Int32, to: Int32, transform: ([UInt8]) -> [UInt8]) {
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let read = buffer.withUnsafeMutableBytes { recv(from, $0.baseAddress, $0.count, 0) }
            guard read > 0 else { break }
            let out = transform(Array(buffer[0..<read]))
            var sent = 0
            while sent < out.count {
                let n = out[sent...].withUnsafeBytes { send(to, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard n > 0 else { return }
                sent += n
            }
        }
        shutdown(to, Int32(SHUT_WR))
    }
}
