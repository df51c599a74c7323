import Foundation
import Glibc
import Synchronization
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// A loopback listener that stamps each accepted connection with the time of its accept, then either
/// closes it at once (a peer that drops everything, so every step is retried) or relays it to a real
/// TLS server (so the scan makes real, concurrent handshakes).
final class StampingListener: Sendable {
    let port: Int
    private let fd: Int32
    private let stamps = Mutex([ContinuousClock.Instant]())
    private let upstreamPort: Int?

    /// Accept instants, in accept order.
    var accepts: [ContinuousClock.Instant] { stamps.withLock { $0 } }

    /// - Parameter upstreamPort: relay each connection to 127.0.0.1:upstreamPort; nil: close it at once.
    init(upstreamPort: Int?) throws {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = Self.loopback(port: 0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, length) == 0 && listen(fd, 64) == 0 && getsockname(fd, $0, &length) == 0
            }
        }
        try #require(fd >= 0 && ok)
        self.fd = fd
        self.port = Int(UInt16(bigEndian: address.sin_port))
        self.upstreamPort = upstreamPort
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    func stop() { shutdown(fd, Int32(SHUT_RDWR)) }

    private static func loopback(port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = UInt16(port).bigEndian
        return address
    }

    private func acceptLoop() {
        while true {
            let connection = accept(fd, nil, nil)
            guard connection >= 0 else { return }
            stamps.withLock { $0.append(.now) }
            guard let upstreamPort else {
                close(connection)
                continue
            }
            Thread { Self.relay(connection, to: upstreamPort) }.start()
        }
    }

    /// Copies bytes both ways until either side ends, with blocking sockets on two threads.
    private static func relay(_ client: Int32, to port: Int) {
        let server = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = loopback(port: port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(server, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
        guard connected else {
            close(client)
            close(server)
            return
        }
        let done = DispatchSemaphore(value: 0)
        for (from, to) in [(client, server), (server, client)] {
            Thread {
                var buffer = [UInt8](repeating: 0, count: 16384)
                while true {
                    let n = read(from, &buffer, buffer.count)
                    if n <= 0 || write(to, buffer, n) != n { break }
                }
                shutdown(to, Int32(SHUT_WR))
                shutdown(from, Int32(SHUT_RD))
                done.signal()
            }.start()
        }
        done.wait()
        done.wait()
        close(client)
        close(server)
    }
}

@Suite("--delay: the connection pacer")
struct ConnectionPacerTests {
    static let delay = 0.2
    /// Allowance for when the listener's accept thread is woken (the stamp is taken after `accept`
    /// returns, the pacer's before `connect`): a stamp taken late shortens the next gap by as much. 10 ms was
    /// too little on a loaded 2-core machine (a gap of 0.181 s was measured while another build ran); 50 ms is
    /// still far from the gaps an unpaced scan makes (several connections within a millisecond).
    static let wakeSlack = 0.05

    /// Whether accepts were paced: the whole run spans at least the delay per gap (a late stamp shortens one gap and
    /// lengthens the next, so the span is what lateness cannot fake), and no gap is below half the delay (an unpaced
    /// scan's gaps are under a millisecond). Under a load average of 6–9 on 2 cores, single gaps fell below
    /// delay − 50 ms while the pacer held.
    static func paced(_ accepts: [ContinuousClock.Instant]) -> Bool {
        let gaps = gaps(accepts)
        return gaps.reduce(0, +) >= Double(gaps.count) * delay - wakeSlack && gaps.allSatisfy { $0 >= delay / 2 }
    }

    static func gaps(_ accepts: [ContinuousClock.Instant]) -> [Double] {
        zip(accepts, accepts.dropFirst()).map { earlier, later in
            let gap = later - earlier
            return Double(gap.components.seconds) + Double(gap.components.attoseconds) / 1e18
        }
    }

    @Test(
        "retries of dropped connections are spaced too: every accepted connection at least the delay after the previous"
    )
    func pacesRetries() async throws {
        let listener = try StampingListener(upstreamPort: nil)
        defer { listener.stop() }
        let prober = TLSProber(
            perHostLimit: 3,
            retry: RetryPolicy(maxRetries: 2, initialDelay: 0.002), connectionDelay: Self.delay)
        let profile = await prober.scan(
            ProbeRequest(
                target: try Target(parsing: "paced.test:\(listener.port)"), connectAddress: "127.0.0.1", timeout: 3,
                deadline: 30))
        let accepts = listener.accepts
        #expect(profile.status == .error)
        #expect(profile.handshakes == accepts.count)
        #expect(accepts.count >= 6)  // the lead and its retries, then every version on its own, retried
        #expect(Self.paced(accepts), "gaps: \(Self.gaps(accepts))")
    }

    @Test("concurrent version chains against one address start their handshakes at least the delay apart")
    func pacesConcurrentChains() async throws {
        let server = try TestTLSServer(.modern())
        defer { server.stop() }
        let listener = try StampingListener(upstreamPort: server.port)
        defer { listener.stop() }
        let prober = TLSProber(perHostLimit: 3, connectionDelay: Self.delay)
        let request = ProbeRequest(
            target: try Target(parsing: "localhost:\(listener.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 60, caFiles: [try ProbeFixtures.caFile()])
        let profile = await prober.scan(request)
        let accepts = listener.accepts
        #expect(profile.status == .completed)
        #expect(profile.protocols.contains { $0.supported == true })
        #expect(profile.handshakes == accepts.count)
        #expect(accepts.count >= 4)
        #expect(Self.paced(accepts), "gaps: \(Self.gaps(accepts))")
    }

    @Test("without a delay, the same chains overlap: the check above can fail")
    func unpacedChainsOverlap() async throws {
        let listener = try StampingListener(upstreamPort: nil)
        defer { listener.stop() }
        let prober = TLSProber(perHostLimit: 3, retry: RetryPolicy(maxRetries: 2, initialDelay: 0.002))
        _ = await prober.scan(
            ProbeRequest(
                target: try Target(parsing: "unpaced.test:\(listener.port)"), connectAddress: "127.0.0.1", timeout: 3,
                deadline: 30))
        #expect(!Self.paced(listener.accepts))
        #expect(Self.gaps(listener.accepts).contains { $0 < Self.delay / 2 })
    }
}
