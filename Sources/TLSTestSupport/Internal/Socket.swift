import Foundation
internal import OpenSSLSupport
internal import TLSModel

/// The fixtures' socket: the shared descriptor owner (closed once, in `close()` or `deinit`).
typealias OwnedSocket = OwnedFileDescriptor

/// Blocking reads and writes for the fixtures' peers.
extension OwnedFileDescriptor {
    /// Writes all of `bytes`; false if the peer is gone.
    @discardableResult
    func writeAll(_ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if written <= 0 { return false }
            offset += written
        }
        return true
    }

    /// One `recv` of up to `count` bytes: nil on error or timeout, empty at end of stream.
    func read(upTo count: Int) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: count)
        let received = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count, 0) }
        guard received >= 0 else { return nil }
        return Array(buffer.prefix(received))
    }
}

/// A loopback socket address: fixtures refuse to bind or connect anywhere else.
struct LoopbackAddress {
    let family: Int32
    private var storage = sockaddr_storage()
    let length: socklen_t

    /// Parses `127.x.x.x` or `::1`.
    /// - Throws: ``TestSupportError`` `.notLoopback` for anything else.
    init(_ text: String, port: Int = 0) throws {
        guard let ip = IPAddress(literal: text), !text.hasPrefix("["), ip.isLoopback else {
            throw TestSupportError(.notLoopback, "'\(text)' is not a loopback address (use 127.0.0.1 or ::1)")
        }
        var v4 = in_addr()
        var v6 = in6_addr()
        if ip.isIPv4 {
            withUnsafeMutableBytes(of: &v4) { $0.copyBytes(from: ip.bytes) }
            family = AF_INET
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = in_port_t(UInt16(port).bigEndian)
            address.sin_addr = v4
            length = socklen_t(MemoryLayout<sockaddr_in>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in.self) }
        } else {
            withUnsafeMutableBytes(of: &v6) { $0.copyBytes(from: ip.bytes) }
            family = AF_INET6
            var address = sockaddr_in6()
            address.sin6_family = sa_family_t(AF_INET6)
            address.sin6_port = in_port_t(UInt16(port).bigEndian)
            address.sin6_addr = v6
            length = socklen_t(MemoryLayout<sockaddr_in6>.size)
            withUnsafeMutableBytes(of: &storage) { $0.storeBytes(of: address, as: sockaddr_in6.self) }
        }
    }

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        withUnsafeBytes(of: storage) { body($0.baseAddress!.assumingMemoryBound(to: sockaddr.self), length) }
    }

    /// A listening TCP socket on this address and a kernel-assigned port, with a listen queue of `backlog`.
    func listen(backlog: Int32 = 128) throws -> (socket: OwnedSocket, port: Int) {
        guard let owned = OwnedFileDescriptor.tcpSocket(family: family) else {
            throw TestSupportError.posix("socket", errno: errno)
        }
        let fd = owned.fd
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        guard withSockaddr({ bind(fd, $0, $1) }) == 0 else { throw TestSupportError.posix("bind", errno: errno) }
        guard Glibc.listen(fd, backlog) == 0 else { throw TestSupportError.posix("listen", errno: errno) }
        var bound = sockaddr_storage()
        var size = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutableBytes(of: &bound) {
            getsockname(fd, $0.baseAddress!.assumingMemoryBound(to: sockaddr.self), &size)
        }
        guard named == 0 else { throw TestSupportError.posix("getsockname", errno: errno) }
        let port = withUnsafeBytes(of: bound) { raw -> UInt16 in
            family == AF_INET
                ? UInt16(bigEndian: raw.load(as: sockaddr_in.self).sin_port)
                : UInt16(bigEndian: raw.load(as: sockaddr_in6.self).sin6_port)
        }
        return (owned, Int(port))
    }

    /// A blocking TCP connection (loopback connects at once), with read/write timeouts set.
    func connect(timeout: Double) throws -> OwnedSocket {
        guard let owned = OwnedFileDescriptor.tcpSocket(family: family) else {
            throw TestSupportError.posix("socket", errno: errno)
        }
        let fd = owned.fd
        owned.setTimeouts(timeout)
        guard withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
            throw TestSupportError.posix("connect", errno: errno)
        }
        return owned
    }
}

/// A one-shot broadcast: `fire()` closes the write end of a pipe, which makes the read end
/// readable (end of file) for every thread polling it, for ever after.
final class StopSignal: Sendable {  // both ends are descriptor owners: each closed at most once
    private let readEnd: OwnedFileDescriptor
    private let writeEnd: OwnedFileDescriptor

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw TestSupportError.posix("pipe", errno: errno) }
        readEnd = OwnedFileDescriptor(takingOwnership: fds[0])
        writeEnd = OwnedFileDescriptor(takingOwnership: fds[1])
    }

    deinit { fire() }  // then the owners close the read end

    /// The end that becomes readable (end of file) once the signal fires.
    var readFD: Int32 { readEnd.fd }

    func fire() { writeEnd.close() }

    var isFired: Bool { writeEnd.fd < 0 }

    /// Waits until `fd` has one of `events`, the signal fires, or `seconds` pass.
    /// Returns the `revents` of `fd` (0 on timeout or stop).
    func wait(for fd: Int32, events: Int16, seconds: Double) -> Int16 {
        var fds = [pollfd(fd: fd, events: events, revents: 0), pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        let result = poll(&fds, 2, Int32(seconds * 1000))
        guard result > 0, fds[1].revents == 0 else { return 0 }
        return fds[0].revents
    }

    /// Sleeps up to `seconds`; true if the signal fired meanwhile.
    func sleep(_ seconds: Double) -> Bool {
        var fds = [pollfd(fd: readFD, events: Int16(POLLIN), revents: 0)]
        return poll(&fds, 1, Int32(seconds * 1000)) > 0
    }
}
