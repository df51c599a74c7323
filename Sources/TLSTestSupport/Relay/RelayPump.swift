import Foundation
internal import OpenSSLSupport

/// Moves bytes both ways between a client and a server socket on one thread, with `poll`: each chunk
/// (and each end of stream) is passed on `latency` seconds after it was read, and the server's answer
/// can be cut after a number of bytes.
struct RelayPump {
    /// One direction: what was read and when it may be passed on (nil bytes: end of stream).
    private struct Direction {
        let from: OwnedFileDescriptor
        let to: OwnedFileDescriptor
        var queue: [(due: ContinuousClock.Instant, bytes: [UInt8]?)] = []
        var reading = true
        var done = false
        /// Bytes passed on so far.
        var passed = 0
        /// Bytes read so far.
        var received = 0
    }

    let client: OwnedFileDescriptor
    let server: OwnedFileDescriptor
    let latency: Double
    /// Cut the connection once this many bytes came from the server (nil: never).
    let truncateAfter: Int?
    let stop: StopSignal

    /// No relayed connection lives longer than this, whatever its peers do.
    static let lifetime: Duration = .seconds(30)

    /// Relays until both directions ended, a peer failed, the cut happened or the relay stopped.
    /// - Parameter onTruncate: called once when the server's answer is cut, before the client sees it.
    /// - Parameter onClientEnd: called once, with the bytes the client sent, when the client's end of stream
    ///   (or reset) is read, or when the relaying ends before that.
    func run(onTruncate: () -> Void, onClientEnd: (Int) -> Void = { _ in }) {
        var clientEnded = false
        var up = Direction(from: client, to: server)
        defer { if !clientEnded { onClientEnd(up.received) } }
        relay(&up, onTruncate: onTruncate) {
            clientEnded = true
            onClientEnd($0)
        }
    }

    private func relay(_ up: inout Direction, onTruncate: () -> Void, onClientEnd: (Int) -> Void) {
        var down = Direction(from: server, to: client)
        let end = ContinuousClock.now + Self.lifetime
        while !(up.done && down.done), !stop.isFired, ContinuousClock.now < end {
            let next = [up.queue.first?.due, down.queue.first?.due].compactMap { $0 }.min()
            let wait = next.map { max(0, ($0 - ContinuousClock.now) / .milliseconds(1)) } ?? 1000
            var fds = [
                pollfd(fd: up.reading ? client.fd : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: down.reading ? server.fd : -1, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stop.readFD, events: Int16(POLLIN), revents: 0),
            ]
            guard poll(&fds, 3, Int32(min(wait, 1000).rounded(.up))) >= 0 || errno == EINTR else { return }
            if fds[2].revents != 0 { return }
            if fds[0].revents != 0 {
                read(&up)
                if !up.reading { onClientEnd(up.received) }
            }
            if fds[1].revents != 0 { read(&down) }
            guard deliver(&up, limit: nil) == .passed else { return }
            switch deliver(&down, limit: truncateAfter, onTruncate: onTruncate) {
            case .passed: continue
            case .gone: return
            case .cut:
                Self.finish(client, stop: stop)  // FIN to the client, after it has what came before the cut
                return
            }
        }
    }

    private func read(_ direction: inout Direction) {
        let chunk = direction.from.read(upTo: 16_384)
        let due = ContinuousClock.now + .milliseconds(Int((latency * 1000).rounded()))
        if let chunk, !chunk.isEmpty {
            direction.received += chunk.count
            direction.queue.append((due, chunk))
        } else {
            direction.queue.append((due, nil))  // end of stream, or a reset: pass on an end of stream
            direction.reading = false
        }
    }

    private enum Delivery { case passed, cut, gone }

    /// Passes on what is due, up to `limit` bytes in all; at the limit, calls `onTruncate` and says `cut`.
    private func deliver(_ direction: inout Direction, limit: Int?, onTruncate: () -> Void = {}) -> Delivery {
        let now = ContinuousClock.now
        while let first = direction.queue.first, first.due <= now {
            direction.queue.removeFirst()
            guard var bytes = first.bytes else {
                _ = shutdown(direction.to.fd, Int32(SHUT_WR))
                direction.done = true
                continue
            }
            var cut = false
            if let limit, direction.passed + bytes.count > limit {
                bytes = Array(bytes.prefix(max(0, limit - direction.passed)))
                cut = true
                onTruncate()  // counted before the client can see the cut
            }
            guard bytes.isEmpty || direction.to.writeAll(bytes) else { return .gone }
            direction.passed += bytes.count
            if cut { return .cut }
        }
        return .passed
    }

    /// Ends a client connection with FIN, not RST: half-closes, then reads what the client still sends
    /// (closing with unread bytes would reset) until it closes too, briefly.
    static func finish(_ client: OwnedFileDescriptor, stop: StopSignal) {
        _ = shutdown(client.fd, Int32(SHUT_WR))
        let end = ContinuousClock.now + .seconds(2)
        while ContinuousClock.now < end {
            guard stop.wait(for: client.fd, events: Int16(POLLIN), seconds: 0.5) != 0 else { continue }
            guard let bytes = client.read(upTo: 4096), !bytes.isEmpty else { return }
        }
    }
}
