internal import CLinux
internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A resolved socket address (IPv4 or IPv6) with its text form.
package struct SocketAddress: Sendable, Hashable, CustomStringConvertible {
    var storage: [UInt8]
    var length: socklen_t
    package let family: Int32
    /// The numeric address, e.g. `127.0.0.1` or `::1`.
    package let ip: String
    package let port: Int

    package var description: String { family == AF_INET6 ? "[\(ip)]:\(port)" : "\(ip):\(port)" }

    init(_ address: UnsafePointer<sockaddr>, length: socklen_t) {
        self.storage = Array(UnsafeRawBufferPointer(start: address, count: Int(length)))
        self.length = length
        self.family = Int32(address.pointee.sa_family)
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        var service = [CChar](repeating: 0, count: Int(NI_MAXSERV))
        getnameinfo(
            address, length, &host, socklen_t(host.count), &service, socklen_t(service.count),
            NI_NUMERICHOST | NI_NUMERICSERV)
        self.ip = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        self.port = Int(String(decoding: service.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) ?? 0
    }

    /// Resolves `host` (a name or an IP literal) for TCP on `port`.
    ///
    /// > Warning: Blocks on DNS for names; call it from a thread of your own, not Swift's cooperative pool.
    /// - Throws: ``ProbeFailure`` with the resolver's message.
    package static func resolve(_ host: String, port: Int) throws -> [SocketAddress] {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        hints.ai_flags = AI_ADDRCONFIG
        if IPAddress(host) != nil { hints.ai_flags = AI_NUMERICHOST }
        var result: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &result)
        guard status == 0, let first = result else {
            throw ProbeFailure(.unreachable, "cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(first) }
        var addresses: [SocketAddress] = []
        var cursor: UnsafeMutablePointer<addrinfo>? = first
        while let info = cursor {
            if let sa = info.pointee.ai_addr {
                let address = SocketAddress(sa, length: info.pointee.ai_addrlen)
                if !addresses.contains(address) { addresses.append(address) }
            }
            cursor = info.pointee.ai_next
        }
        return addresses
    }
}

/// A non-blocking TCP socket with deadline-bounded connect, send and receive (poll-based),
/// built on the shared descriptor owner.
final class TCPSocket {
    /// The one owner of the descriptor (closed when it goes).
    let descriptor: OwnedFileDescriptor
    let address: SocketAddress

    /// The descriptor, lent for as long as this socket lives.
    var fd: Int32 { descriptor.fd }

    private init(descriptor: OwnedFileDescriptor, address: SocketAddress) {
        self.descriptor = descriptor
        self.address = address
    }

    /// Connects within the deadline, blocking the calling thread (fetches, on the prober's pool).
    static func connect(to address: SocketAddress, deadline: Deadline) throws -> TCPSocket {
        let sock = try startConnect(to: address)
        try sock.finishConnect(deadline: deadline)
        return sock
    }

    /// Connects within the deadline, suspending the calling task on its event loop (probes).
    static func connect(to address: SocketAddress, deadline: Deadline) async throws -> TCPSocket {
        let sock = try startConnect(to: address)
        try await sock.finishConnect(deadline: deadline)
        return sock
    }

    /// Starts a non-blocking connect and returns at once: the TCP handshake goes on in the kernel while
    /// the caller does other work (``PreconnectedSockets``). Finish it with ``finishConnect(deadline:)``.
    static func startConnect(to address: SocketAddress) throws -> TCPSocket {
        guard let descriptor = OwnedFileDescriptor.tcpSocket(family: address.family) else {
            throw ProbeFailure(.local, "socket(): \(String(cString: strerror(errno)))")
        }
        let sock = TCPSocket(descriptor: descriptor, address: address)
        let fd = descriptor.fd
        descriptor.setNonBlocking()
        descriptor.setNoDelay()
        let rc = address.storage.withUnsafeBytes { raw in
            Glibc.connect(fd, raw.baseAddress!.assumingMemoryBound(to: sockaddr.self), address.length)
        }
        sock.connectPending = rc != 0
        if rc != 0 && errno != EINPROGRESS {
            throw ProbeFailure(.unreachable, "connect to \(address): \(String(cString: strerror(errno)))")
        }
        return sock
    }

    /// Whether a connect started by ``startConnect(to:)`` may still be in progress.
    private var connectPending = false

    /// Bytes already read that belong to the next ``receive(deadline:maximum:)``: what a proxy sent after the head of
    /// its answer to CONNECT (``ProxyTunnel``), which is the server's.
    var pending: [UInt8] = []

    /// Waits within the deadline for the connect ``startConnect(to:)`` began (blocking), and says how it ended.
    func finishConnect(deadline: Deadline) throws {
        guard connectPending else { return }
        guard try wait(for: Int16(POLLOUT), deadline: deadline) else { throw connectTimeout }
        try connectOutcome()
    }

    /// Waits within the deadline for the connect ``startConnect(to:)`` began (suspending), and says how it ended.
    func finishConnect(deadline: Deadline) async throws {
        guard connectPending else { return }
        guard try await wait(for: EPOLLOUT.rawValue, deadline: deadline) else { throw connectTimeout }
        try connectOutcome()
    }

    private var connectTimeout: ProbeFailure { ProbeFailure(.timeout, "TCP connect to \(address) timed out") }

    /// How a finished connect ended (the socket was ready for writing).
    private func connectOutcome() throws {
        connectPending = false
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len)
        if soError == ECONNRESET {
            // The TCP handshake completed and the server reset the connection at once (a rate limiter
            // or a WAF): a connection that was dropped, not a port that refuses.
            throw ProbeFailure(.closed, "connection reset without an answer (\(String(cString: strerror(soError))))")
        }
        if soError != 0 {
            throw ProbeFailure(.unreachable, "connect to \(address): \(String(cString: strerror(soError)))")
        }
    }

    /// Whether the TCP handshake of this connection has completed (without waiting), even if the server has
    /// reset it since: a connect still in progress, or one refused or unanswered, is not a connection the
    /// server saw.
    var isEstablished: Bool {
        var pfd = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
        guard poll(&pfd, 1, 0) == 1, pfd.revents != 0 else { return false }
        var soError: Int32 = 0
        var len = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_ERROR, &soError, &len) == 0 else { return false }
        return ![ECONNREFUSED, ETIMEDOUT, EHOSTUNREACH, ENETUNREACH].contains(soError)
    }

    /// Waits until the socket is ready for `events`, blocking the thread; false on timeout.
    func wait(for events: Int16, deadline: Deadline) throws -> Bool {
        while true {
            let remaining = deadline.remainingMilliseconds
            if remaining <= 0 { return false }
            var pfd = pollfd(fd: fd, events: events, revents: 0)
            let rc = poll(&pfd, 1, Int32(min(remaining, Int(Int32.max))))
            if rc > 0 { return true }
            if rc == 0 { return false }
            if errno != EINTR { throw ProbeFailure(.local, "poll(): \(String(cString: strerror(errno)))") }
        }
    }

    /// Waits until the socket is ready for `events` (`EPOLLIN`, `EPOLLOUT`) on the calling task's event loop; false on
    /// timeout.
    /// - Throws: ``ProbeFailure`` `.cancelled` when the task is cancelled.
    func wait(for events: UInt32, deadline: Deadline) async throws -> Bool {
        switch await EventLoopGroup.shared.current.wait(for: fd, events: events, until: deadline) {
        case .ready: return true
        case .timedOut: return false
        case .cancelled: throw ProbeFailure(.cancelled, "the scan was cancelled")
        }
    }

    /// Sends every byte before the deadline, blocking the thread.
    func sendAll(_ bytes: [UInt8], deadline: Deadline) throws {
        var offset = 0
        while offset < bytes.count {
            if let sent = try sendSome(bytes, from: offset) {
                offset += sent
            } else if try !wait(for: Int16(POLLOUT), deadline: deadline) {
                throw sendTimeout
            }
        }
    }

    /// Sends every byte before the deadline, suspending the task while the socket's buffer is full.
    func sendAll(_ bytes: [UInt8], deadline: Deadline) async throws {
        var offset = 0
        while offset < bytes.count {
            if let sent = try sendSome(bytes, from: offset) {
                offset += sent
            } else if try await !wait(for: EPOLLOUT.rawValue, deadline: deadline) {
                throw sendTimeout
            }
        }
    }

    private var sendTimeout: ProbeFailure { ProbeFailure(.timeout, "sending to \(address) timed out") }

    /// One `send` of what is left from `offset`: the bytes sent, or nil when the socket's buffer is full.
    private func sendSome(_ bytes: [UInt8], from offset: Int) throws -> Int? {
        let n = bytes[offset...].withUnsafeBytes { raw in send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL)) }
        if n > 0 { return n }
        if n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR) { return nil }
        throw ProbeFailure(
            .closed, "connection closed by \(address) while sending (\(String(cString: strerror(errno))))")
    }

    enum ReadResult {
        case data([UInt8])
        case eof
        case reset(String)
        case timeout
    }

    /// Reads what is available, blocking the thread until the deadline.
    func receive(deadline: Deadline, maximum: Int = 16_384) throws -> ReadResult {
        while true {
            if let read = receiveSome(maximum: maximum) { return read }
            guard try wait(for: Int16(POLLIN), deadline: deadline) else { return .timeout }
        }
    }

    /// Reads what is available, suspending the task until the deadline.
    func receive(deadline: Deadline, maximum: Int = 16_384) async throws -> ReadResult {
        while true {
            if let read = receiveSome(maximum: maximum) { return read }
            guard try await wait(for: EPOLLIN.rawValue, deadline: deadline) else { return .timeout }
        }
    }

    /// One `recv` (or the bytes held in ``pending``); nil when nothing is there yet.
    private func receiveSome(maximum: Int) -> ReadResult? {
        if !pending.isEmpty {
            defer { pending = [] }
            return .data(pending)
        }
        var buffer = [UInt8](repeating: 0, count: maximum)
        let n = buffer.withUnsafeMutableBytes { raw in recv(fd, raw.baseAddress, raw.count, 0) }
        if n > 0 { return .data(Array(buffer[0..<n])) }
        if n == 0 { return .eof }
        if errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return nil }
        return .reset(String(cString: strerror(errno)))
    }
}

/// An absolute monotonic deadline.
struct Deadline: Sendable {
    let uptimeNanoseconds: UInt64

    /// At most a day ahead: callers validate their options, this only keeps the arithmetic safe.
    static func after(seconds: Double) -> Deadline {
        let clamped = seconds.isFinite ? min(max(0, seconds), 86_400) : 86_400
        return Deadline(uptimeNanoseconds: DispatchTime.now().uptimeNanoseconds + UInt64(clamped * 1e9))
    }

    static func earliest(_ a: Deadline, _ b: Deadline) -> Deadline {
        a.uptimeNanoseconds < b.uptimeNanoseconds ? a : b
    }

    var remainingMilliseconds: Int {
        let now = DispatchTime.now().uptimeNanoseconds
        return now >= uptimeNanoseconds ? 0 : Int((uptimeNanoseconds - now) / 1_000_000)
    }

    var hasPassed: Bool { remainingMilliseconds <= 0 }
}
