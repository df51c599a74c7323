import Foundation
internal import OpenSSLSupport
import Synchronization

/// A TCP relay on a loopback port in front of a real server (a ``TestTLSServer``), that mistreats
/// connections the way rate limiters, WAFs and overloaded load balancers do (``RelayFault``), and can
/// add latency. It counts the connections it accepted and the ones it dropped.
///
/// Each accepted connection is handled on a thread of its own, with `poll` on the two sockets and the
/// stop signal; the fault is decided in the accept loop, in accept order.
///
/// > Warning: Starts threads and listens on loopback until ``stop()`` or deinit.
package final class FaultRelay: Sendable {
    /// The kernel-assigned port to connect to.
    package let port: Int
    /// The bound address, `127.0.0.1` or `::1`.
    package let host: String
    /// What it does to connections.
    package let fault: RelayFault
    private let core: RelayCore

    /// Binds `address` port 0 and relays to `upstreamHost:upstreamPort`.
    /// - Parameters:
    ///   - upstreamHost: the server's loopback address.
    ///   - upstreamPort: the server's port.
    ///   - fault: what to do to the connections.
    ///   - latency: seconds by which each accepted connection and each chunk, in each direction, is
    ///     delayed before it is passed on (0: none).
    ///   - address: the loopback address to listen on.
    ///   - acceptDelay: seconds by which each accepted connection is delayed before it is forwarded
    ///     (nil: `latency`).
    /// - Throws: ``TestSupportError`` `.socket` / `.notLoopback`.
    package init(
        upstreamHost: String, upstreamPort: Int, fault: RelayFault, latency: Double = 0, address: String = "127.0.0.1",
        acceptDelay: Double? = nil
    ) throws {
        _ = LoopbackListener.ignoreSIGPIPE
        let upstream = try LoopbackAddress(upstreamHost, port: upstreamPort)
        let (listening, port) = try LoopbackAddress(address).listen()
        self.port = port
        self.host = address
        self.fault = fault
        self.core = RelayCore(
            upstream: upstream, fault: fault, latency: max(0, latency), acceptDelay: max(0, acceptDelay ?? latency),
            listening: listening, stop: try StopSignal())
        let core = self.core
        let thread = Thread { core.acceptLoop() }
        thread.name = "fault-relay-\(port)"
        thread.start()
    }

    /// A relay in front of `server`.
    /// - Throws: ``TestSupportError`` `.socket` when the port cannot be bound.
    package convenience init(in front: TestTLSServer, fault: RelayFault, latency: Double = 0) throws {
        try self.init(
            upstreamHost: front.host, upstreamPort: front.port, fault: fault, latency: latency,
            address: front.host)
    }

    /// A relay that only delays, emulating a network with round-trip time `roundTrip` seconds (this
    /// machine's kernel has no `netem`): the accept waits one round trip (the TCP handshake) and every
    /// chunk half of one, each way, so a TLS 1.2 handshake costs connect + 2 round trips, as on a real
    /// network.
    /// - Throws: ``TestSupportError`` `.socket` when the port cannot be bound.
    package static func delaying(_ server: TestTLSServer, roundTrip: Double) throws -> FaultRelay {
        try FaultRelay(
            upstreamHost: server.host, upstreamPort: server.port, fault: .none, latency: roundTrip / 2,
            address: server.host, acceptDelay: roundTrip)
    }

    deinit { stop() }

    /// `127.0.0.1:PORT` or `[::1]:PORT`.
    package var target: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }

    /// Connections accepted so far.
    package var acceptedConnections: Int { core.counts.withLock { $0.accepted } }

    /// Connections closed, reset or cut off by the relay so far (a truncation counts when it cuts).
    package var droppedConnections: Int { core.counts.withLock { $0.dropped } }

    /// Forwarded connections whose client closed without sending a byte (a connection opened ahead and not
    /// used). A connection is counted when the relay has finished with it: call ``waitUntilIdle(timeout:)`` first.
    package var silentConnections: Int { core.counts.withLock { $0.silent } }

    /// Waits until the client has closed every connection the relay accepted, as the relay saw it (the relay
    /// reads a close only after its accept delay), at most `timeout` seconds. False if some are still open.
    @discardableResult
    package func waitUntilIdle(timeout: Double = 5) -> Bool {
        let end = ContinuousClock.now + .milliseconds(Int(timeout * 1000))
        while ContinuousClock.now < end {
            if core.counts.withLock({ $0.open == 0 }) { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    /// Stops accepting and ends every relayed connection (idempotent; also done in deinit).
    package func stop() { core.stop.fire() }
}

/// The relay's shared state and accept loop, owned by the ``FaultRelay`` and its threads.
final class RelayCore: Sendable {
    struct Counts {
        var accepted = 0
        var dropped = 0
        /// Accepted connections whose client has not closed yet, as the relay saw it.
        var open = 0
        /// Forwarded connections the client closed without sending a byte.
        var silent = 0
        /// When the last connection was forwarded (``RelayFault/onePerSecond(reset:)``).
        var lastForwarded: ContinuousClock.Instant?
    }

    let upstream: LoopbackAddress
    let fault: RelayFault
    let latency: Double
    let acceptDelay: Double
    let listening: OwnedFileDescriptor
    let stop: StopSignal
    let counts = Mutex(Counts())

    init(
        upstream: LoopbackAddress, fault: RelayFault, latency: Double, acceptDelay: Double,
        listening: OwnedFileDescriptor,
        stop: StopSignal
    ) {
        self.upstream = upstream
        self.fault = fault
        self.latency = latency
        self.acceptDelay = acceptDelay
        self.listening = listening
        self.stop = stop
    }

    func acceptLoop() {
        defer { listening.close() }
        listening.setNonBlocking()  // a client that resets between poll and accept must not block the loop
        let decide = fault.action
        while !stop.isFired {
            guard stop.wait(for: listening.fd, events: Int16(POLLIN), seconds: 3600) != 0 else { continue }
            let fd = accept(listening.fd, nil, nil)
            guard fd >= 0 else { continue }
            let client = OwnedFileDescriptor(takingOwnership: fd)
            let action = counts.withLock { counts -> RelayFault.Action in
                let index = counts.accepted
                counts.accepted += 1
                counts.open += 1
                var action = decide(index)
                if case .onePerSecond(let reset) = fault {
                    let now = ContinuousClock.now
                    if let last = counts.lastForwarded, now - last < .seconds(1) {
                        action = reset ? .reset : .close
                    } else {
                        counts.lastForwarded = now
                    }
                }
                if action == .close || action == .reset { counts.dropped += 1 }
                return action
            }
            let thread = Thread { [self] in handle(client, action) }
            thread.name = "fault-relay-connection"
            thread.start()
        }
    }

    private func handle(_ client: OwnedFileDescriptor, _ action: RelayFault.Action) {
        var relayed = false
        defer {
            client.close()
            if !relayed { counts.withLock { $0.open -= 1 } }
        }
        switch action {
        case .reset:
            // Linger 0: close sends RST instead of FIN.
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            _ = setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
        case .close:
            RelayPump.finish(client, stop: stop)
        case .forward, .truncate:
            if acceptDelay > 0, stop.sleep(acceptDelay) { return }
            guard let server = try? upstream.connect(timeout: 5) else { return }
            defer { server.close() }
            var limit: Int?
            if case .truncate(let bytes) = action { limit = bytes }
            relayed = true  // the pump says when the client's side ends
            let pump = RelayPump(client: client, server: server, latency: latency, truncateAfter: limit, stop: stop)
            pump.run(
                onTruncate: { self.counts.withLock { $0.dropped += 1 } },
                onClientEnd: { sent in
                    self.counts.withLock {
                        if sent == 0 { $0.silent += 1 }
                        $0.open -= 1
                    }
                })
            return
        }
    }
}
