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

    init(address: String, handler: @escaping @Sendable (OwnedSocket, StopSignal) -> Void) throws {
        // TLS 1.3 servers write to clients that may already have left; a write to a closed socket
        // must be an error return, not a process-killing SIGPIPE.
        Self.ignoreSIGPIPE
        let loopback = try LoopbackAddress(address)
        let (socket, port) = try loopback.listen()
        self.listening = socket
        self.port = port
        self.host = address
        self.stopSignal = try StopSignal()
        let thread = Thread { [listening, stopSignal, accepted] in
            Self.acceptLoop(listening, stopSignal, accepted, handler)
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
        _ listening: OwnedSocket, _ stop: StopSignal, _ accepted: Locked<Int>,
        _ handler: @escaping @Sendable (OwnedSocket, StopSignal) -> Void
    ) {
        defer { listening.close() }
        // Non-blocking: a client that resets between poll and accept must not block the loop.
        listening.setNonBlocking()
        while !stop.isFired {
            let ready = stop.wait(for: listening.fd, events: Int16(POLLIN), seconds: 3600)
            guard ready != 0 else { continue }
            let fd = accept(listening.fd, nil, nil)
            guard fd >= 0 else { continue }
            accepted.withLock { $0 += 1 }
            let connection = OwnedSocket(takingOwnership: fd)
            let thread = Thread { handler(connection, stop) }
            thread.name = "loopback-connection"
            thread.start()
        }
    }
}
