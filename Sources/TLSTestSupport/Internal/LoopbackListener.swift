import Foundation
internal import OpenSSLSupport

/// Accepts TCP connections on a loopback port on a thread of its own and hands each to
/// `handler` on a new thread. `stop()` (idempotent) stops accepting and fires ``stopSignal``,
/// which connection handlers watch so that none outlives the fixture by more than its timeout.
final class LoopbackListener: @unchecked Sendable {  // mutable state is behind `Locked`
    let port: Int
    let host: String
    let stopSignal: StopSignal
    private let listening: OwnedSocket
    private let accepted = Locked(0)

    /// - Parameters:
    ///   - policy: how many connections are served at once (``ConnectionPolicy``).
    ///   - backlog: the listen queue's length.
    init(
        address: String, policy: ConnectionPolicy = .concurrent, backlog: Int32 = 128,
        handler: @escaping @Sendable (OwnedSocket, StopSignal) -> Void
    ) throws {
        // TLS 1.3 servers write to clients that may already have left; a write to a closed socket
        // must be an error return, not a process-killing SIGPIPE.
        Self.ignoreSIGPIPE
        let loopback = try LoopbackAddress(address)
        let (socket, port) = try loopback.listen(backlog: backlog)
        self.listening = socket
        self.port = port
        self.host = address
        self.stopSignal = try StopSignal()
        let thread = Thread { [listening, stopSignal, accepted] in
            Self.acceptLoop(listening, stopSignal, accepted, policy, handler)
        }
        thread.name = "loopback-listener-\(port)"
        thread.start()
    }

    deinit { stop() }

    static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// `host:port`, with brackets around an IPv6 host.
    var target: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// TCP connections accepted so far.
    var acceptedConnections: Int { accepted.withLock { $0 } }

    func stop() {
        stopSignal.fire()
    }

    private static func acceptLoop(
        _ listening: OwnedSocket, _ stop: StopSignal, _ accepted: Locked<Int>, _ policy: ConnectionPolicy,
        _ handler: @escaping @Sendable (OwnedSocket, StopSignal) -> Void
    ) {
        defer { listening.close() }
        // Non-blocking: a client that resets between poll and accept must not block the loop.
        listening.setNonBlocking()
        let active = Locked(0)
        while !stop.isFired {
            let ready = stop.wait(for: listening.fd, events: Int16(POLLIN), seconds: 3600)
            guard ready != 0 else { continue }
            let fd = accept(listening.fd, nil, nil)
            guard fd >= 0 else { continue }
            accepted.withLock { $0 += 1 }
            let connection = OwnedSocket(takingOwnership: fd)
            switch policy {
            case .concurrent:
                spawn { handler(connection, stop) }
            case .oneAtATime:
                handler(connection, stop)  // on this thread: the next accept waits for this connection's end
            case .capped(let limit, let excess):
                let admitted = active.withLock { count -> Bool in
                    guard count < limit else { return false }
                    count += 1
                    return true
                }
                if admitted {
                    spawn {
                        handler(connection, stop)
                        active.withLock { $0 -= 1 }
                    }
                } else {
                    refuse(connection, excess, stop)
                }
            }
        }
    }

    private static func spawn(_ body: @escaping @Sendable () -> Void) {
        let thread = Thread(block: body)
        thread.name = "loopback-connection"
        thread.start()
    }

    /// A connection beyond a capped server's limit: closed, reset, or held open unanswered until the client leaves.
    private static func refuse(_ connection: OwnedSocket, _ excess: ConnectionPolicy.Excess, _ stop: StopSignal) {
        switch excess {
        case .close:
            connection.close()
        case .reset:
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)  // close sends an RST, not a FIN
            _ = setsockopt(connection.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            connection.close()
        case .ignore:
            spawn {
                defer { connection.close() }
                var buffer = [UInt8](repeating: 0, count: 4096)
                // Read and drop what the client sends until it closes (or the fixture stops): never answer.
                while !stop.isFired, stop.wait(for: connection.fd, events: Int16(POLLIN), seconds: 60) != 0 {
                    let n = buffer.withUnsafeMutableBytes { recv(connection.fd, $0.baseAddress, $0.count, 0) }
                    if n <= 0 { return }
                }
            }
        }
    }
}
