import Foundation
internal import OpenSSLSupport

#if canImport(Glibc)
    import Glibc
#endif

/// A loopback port that refuses connections for as long as this value lives: a socket is bound
/// but never listens, so the kernel answers RST and no other test can take the port meanwhile
/// (stopping a server and reusing its number races with parallel tests).
package final class ClosedPort: Sendable {
    package let port: Int
    /// The bound, never-listening socket (closed when this value goes).
    private let socket: OwnedFileDescriptor

    /// - Throws: ``TestSupportError`` when no socket can be bound.
    package init() throws {
        guard let socket = OwnedFileDescriptor.tcpSocket(family: AF_INET) else {
            throw TestSupportError(.socket, "socket(): \(String(cString: strerror(errno)))")
        }
        let fd = socket.fd
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard bound == 0 else {
            throw TestSupportError(.socket, "bind(): \(String(cString: strerror(errno)))")
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        self.socket = socket
        self.port = Int(UInt16(bigEndian: address.sin_port))
    }

    /// `127.0.0.1:PORT`.
    package var target: String { "127.0.0.1:\(port)" }
}
