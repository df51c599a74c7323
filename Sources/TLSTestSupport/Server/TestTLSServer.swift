internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// An OpenSSL TLS server on a loopback port chosen by the kernel, for tests and the demo.
///
/// Each accepted connection gets its own thread: a blocking handshake bounded by
/// ``TLSServerConfiguration/handshakeTimeout``, then a quick close_notify and close.
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class TestTLSServer: @unchecked Sendable {  // immutable after init; counters are locked
    /// The kernel-assigned port.
    package let port: Int
    /// The bound address, `127.0.0.1` or `::1`.
    package let host: String
    /// What the server was started with.
    package let configuration: TLSServerConfiguration
    private let listener: LoopbackListener
    private let completed: Locked<Int>

    /// Binds `configuration.address` port 0 and starts accepting on a thread of its own.
    /// - Throws: ``TestSupportError``: `.tlsConfiguration` when OpenSSL rejects a setting,
    ///   `.socket` / `.notLoopback` when the address cannot be bound.
    package init(_ configuration: TLSServerConfiguration) throws {
        _ = atsc_OPENSSL_init_no_atexit()  // no OpenSSL at-exit cleanup racing live server threads (issue 8)
        let context = try ServerContext(configuration)
        let completed = Locked(0)
        let timeout = configuration.handshakeTimeout
        listener = try LoopbackListener(
            address: configuration.address, policy: configuration.connections, backlog: configuration.listenBacklog
        ) { socket, _ in
            Self.serve(socket, context: context, timeout: timeout) { completed.withLock { $0 += 1 } }
        }
        self.completed = completed
        self.configuration = configuration
        self.port = listener.port
        self.host = listener.host
    }

    deinit { stop() }

    /// `127.0.0.1:PORT` or `[::1]:PORT`.
    package var target: String { listener.target }

    /// TCP connections accepted so far (a scan's handshake count can be checked against it).
    package var acceptedConnections: Int { listener.acceptedConnections }

    /// TLS handshakes that completed so far.
    package var completedHandshakes: Int { completed.withLock { $0 } }

    /// Stops accepting (idempotent; also done in deinit). Connections in progress end within the
    /// handshake timeout.
    package func stop() { listener.stop() }

    /// Whether `::1` can be bound here (containers often run with IPv6 disabled): gate IPv6 tests on it.
    package static let isIPv6LoopbackAvailable: Bool = {
        guard let address = try? LoopbackAddress("::1"), let listening = try? address.listen() else { return false }
        listening.socket.close()
        return true
    }()

    /// Runs one server handshake, calling `onCompletion` if it completed.
    private static func serve(
        _ socket: OwnedSocket, context: ServerContext, timeout: Double, onCompletion: () -> Void
    ) {
        defer { socket.close() }
        // Non-blocking with one deadline: a client that vanishes or trickles bytes cannot wedge this thread.
        socket.setNonBlocking()
        let deadline = Date().addingTimeInterval(timeout)
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }  // this thread's failures are the client's business
        guard let connection = OwnedSSL(context: context.context) else { return }
        defer { withExtendedLifetime(connection) {} }  // `ssl` is lent by `connection`
        let ssl = connection.pointer
        guard SSL_set_fd(ssl, socket.fd) == 1,
            NonBlockingSSL.drive(ssl, socket.fd, deadline: deadline, { SSL_accept($0) }) == 1
        else { return }
        // Counted before close_notify, so a client that waits for close_notify sees the count.
        onCompletion()
        _ = NonBlockingSSL.drive(ssl, socket.fd, deadline: Date().addingTimeInterval(0.5)) { SSL_shutdown($0) }
    }
}
