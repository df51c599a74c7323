import Foundation
import OpenSSLSupport
import TLSTestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("OpenSSL owners")
struct OwnersTests {
    @Test("DER parses, re-encodes to the same bytes, and PEM-encodes")
    func derRoundTrip() throws {
        let leaf = try TestPKI.shared.leaf(.localhost())
        let owned = try #require(OwnedX509(der: leaf.der))
        #expect(owned.der().map { Data($0) } == leaf.der)
        #expect(OwnedX509.der(ofBorrowed: owned.pointer).map { Data($0) } == leaf.der)
        #expect(owned.pem() == leaf.pem)
        let retained = try #require(OwnedX509(retaining: owned.pointer))
        #expect(retained.der() == owned.der())
    }

    @Test("bad DER fails and leaves OpenSSL's reasons queued for the caller; draining empties the queue")
    func badDERQueuesErrors() {
        #expect(OwnedX509(der: [0x30, 0x03, 0x02, 0x01]) == nil)
        let entries = OpenSSLErrorQueue.drain()
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0.line.hasPrefix("error:") && !$0.text.isEmpty })
        #expect(OpenSSLErrorQueue.drain().isEmpty)
    }

    @Test("every certificate of a PEM bundle is read, in order, and the end-of-input error is cleared")
    func pemBundle() throws {
        let ca = TestPKI.shared.root
        let leaf = try TestPKI.shared.leaf(.localhost())
        let bundle = TestCertificate.pemBundle([leaf, ca])
        let parsed = try #require(OwnedX509.certificates(fromPEM: Data(bundle.utf8)))
        #expect(parsed.compactMap { $0.der().map { Data($0) } } == [leaf.der, ca.der])
        #expect(OpenSSLErrorQueue.drain().isEmpty)
        #expect(OwnedX509.certificates(fromPEM: Data("no certificate here".utf8))?.isEmpty == true)
    }

    @Test("a memory BIO hands back exactly what was written")
    func memoryBIO() throws {
        let bio = try #require(MemoryBIO())
        bio.write(Array("hello".utf8))
        #expect(bio.pending == 5)
        #expect(bio.string == "hello")
        #expect(bio.readAll() == Array("hello".utf8))
        #expect(bio.pending == 0)
        let copy = try #require(MemoryBIO(copying: Array("abc".utf8)))
        #expect(copy.string == "abc")
    }

    @Test("a descriptor is closed once: close() is idempotent and fd reads -1 afterwards")
    func descriptorClosedOnce() throws {
        let socket = try #require(OwnedFileDescriptor.tcpSocket(family: AF_INET))
        let fd = socket.fd
        #expect(fd >= 0)
        #expect(fcntl(fd, F_GETFD) >= 0)
        #expect(fcntl(fd, F_GETFD) & FD_CLOEXEC != 0)
        socket.close()
        #expect(socket.fd == -1)
        socket.close()
        #expect(socket.fd == -1)
    }

    @Test("deinit closes the descriptor")
    func deinitCloses() throws {
        var fds: [Int32] = [0, 0]
        try #require(pipe(&fds) == 0)
        defer { _ = close(fds[1]) }
        _ = signal(SIGPIPE, SIG_IGN)  // a write with no reader must fail with EPIPE, not kill the test process
        do { _ = OwnedFileDescriptor(takingOwnership: fds[0]) }
        // The read end was closed by deinit, so the pipe has no reader left. (Checking the number
        // itself would race with descriptors other tests open meanwhile.)
        var byte: UInt8 = 1
        #expect(write(fds[1], &byte, 1) == -1)
        #expect(errno == EPIPE)
    }
}
