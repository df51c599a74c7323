import Foundation
import Glibc
import TLSTestSupport
import Testing

/// A plain TCP client: connect, optionally send, read once with a timeout.
private func exchange(port: Int, send: [UInt8] = [], timeout: Double = 1.5) throws -> (
    bytes: [UInt8], result: Int, errno: Int32
) {
    let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    try #require(fd >= 0)
    defer { close(fd) }
    var tv = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
    setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, socklen_t(MemoryLayout<timeval>.size))
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = in_port_t(UInt16(port).bigEndian)
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
            connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
        }
    }
    try #require(connected == 0)
    if !send.isEmpty { _ = send.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    var buffer = [UInt8](repeating: 0, count: 4096)
    let received = recv(fd, &buffer, buffer.count, 0)
    let error = errno
    return (Array(buffer.prefix(max(received, 0))), received, error)
}

@Suite("Hostile peers")
struct HostilePeerTests {
    @Test("silent: connect succeeds, the read times out")
    func silent() throws {
        let peer = try HostilePeer(.silent)
        defer { peer.stop() }
        let outcome = try exchange(port: peer.port, send: Array("hello".utf8), timeout: 0.5)
        #expect(outcome.result == -1)
        #expect(outcome.errno == EAGAIN || outcome.errno == EWOULDBLOCK)
        #expect(peer.acceptedConnections == 1)
    }

    @Test("closeImmediately: the read sees end of stream")
    func closeImmediately() throws {
        let peer = try HostilePeer(.closeImmediately)
        defer { peer.stop() }
        #expect(try exchange(port: peer.port).result == 0)
    }

    @Test("plainHTTP: the reply is an HTTP 400")
    func plainHTTP() throws {
        let peer = try HostilePeer(.plainHTTP)
        defer { peer.stop() }
        let reply = String(
            decoding: try exchange(port: peer.port, send: [0x16, 0x03, 0x01, 0x00, 0x05, 1, 2, 3, 4, 5]).bytes,
            as: UTF8.self)
        #expect(reply.hasPrefix("HTTP/1.1 400 Bad Request"))
    }

    @Test("garbage: bytes arrive and are not a TLS record")
    func garbage() throws {
        let peer = try HostilePeer(.garbage)
        defer { peer.stop() }
        let bytes = try exchange(port: peer.port).bytes
        #expect(!bytes.isEmpty)
        #expect(!(0x14...0x18).contains(bytes.first ?? 0x16))
    }

    @Test("slowDrip: a handshake record header arrives, then the body trickles")
    func slowDrip() throws {
        let peer = try HostilePeer(.slowDrip)
        defer { peer.stop() }
        let bytes = try exchange(port: peer.port, timeout: 0.8).bytes
        #expect(bytes == [0x16, 0x03, 0x03, 0x40, 0x00])
    }

    @Test("a TLS client fails against every hostile peer within its timeout", arguments: HostileBehavior.allCases)
    func tlsClientFails(_ behavior: HostileBehavior) throws {
        let peer = try HostilePeer(behavior)
        defer { peer.stop() }
        let start = Date()
        #expect(TestTLSClient.handshake(port: peer.port, timeout: 1) == nil)
        #expect(Date().timeIntervalSince(start) < 10)  // bounded by the client's own timeout, not a speed claim
    }

    @Test("huge chain: more than the OpenSSL client's default 100 KB, and such a client refuses it")
    func hugeChain() throws {
        let configuration = try TLSServerConfiguration.hugeChain()
        #expect(configuration.chainSize > TLSServerConfiguration.openSSLDefaultMaxCertificateList)
        #expect(configuration.chain.count >= 60)
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        #expect(TestTLSClient.handshake(port: server.port) == nil)
        let raised = try #require(TestTLSClient.handshake(port: server.port, maxCertificateList: 1 << 20))
        #expect(raised.peerChain.count == configuration.chain.count)
    }
}
