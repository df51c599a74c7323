import Foundation

@testable import TLSHello

#if canImport(Glibc)
    import Glibc
#endif

/// Sends a built hello to a loopback server over a plain TCP socket and reads the flight with the engine's reader,
/// until the answer is decided: a ServerHelloDone, TLS 1.3's first encrypted record, a HelloRetryRequest, an alert,
/// a reply that is not TLS, a malformed one, the server's close, or 5 seconds.
struct LoopbackExchange {
    var events: [ServerFlightEvent] = []
    /// Whether the server closed the connection before the answer was decided.
    var closed = false

    var serverHello: ServerHelloFacts? {
        for case .serverHello(let facts) in events { return facts }
        return nil
    }

    var firstEncryptedRecord: [UInt8]? {
        for case .encryptedRecord(let record) in events { return record }
        return nil
    }

    struct SocketError: Error, CustomStringConvertible { var description: String }

    static func run(port: Int, hello: BuiltClientHello, timeout: Double = 5) throws -> LoopbackExchange {
        let connection = try LoopbackConnection(port: port)
        try connection.send(hello.bytes)
        return connection.readUntilDecided(timeout: timeout)
    }

    func isDecided(_ event: ServerFlightEvent) -> Bool {
        switch event {
        case .serverHelloDone, .encryptedRecord, .helloRetryRequest, .alert, .notTLS, .malformed: true
        default: false
        }
    }
}

/// One TCP connection to a loopback server, read through one ``ServerFlightReader`` (a HelloRetryRequest and the
/// ServerHello after the second hello come on the same connection).
final class LoopbackConnection {
    private let fd: Int32
    private var reader = ServerFlightReader()

    init(port: Int) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw LoopbackExchange.SocketError(description: "socket: \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard connected == 0 else {
            close(fd)
            throw LoopbackExchange.SocketError(description: "connect to 127.0.0.1:\(port): errno \(errno)")
        }
    }

    deinit { close(fd) }

    func send(_ bytes: [UInt8]) throws {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw LoopbackExchange.SocketError(description: "send: errno \(errno)") }
            sent += count
        }
    }

    /// The signature scheme of the TLS 1.2 ServerKeyExchange read so far.
    var serverKeyExchangeSignature: UInt16? { reader.serverKeyExchangeSignature }

    /// Every event until the server has sent nothing for `quiet` seconds or closed: a TLS 1.3 server's whole
    /// encrypted flight (it then waits for the client's Finished).
    func readFlight(quiet: Double = 0.5) -> [ServerFlightEvent] {
        var events: [ServerFlightEvent] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            while let event = reader.next() { events.append(event) }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(quiet * 1000)) > 0 else { return events }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { return events }
            reader.feed(Array(buffer[0..<count]))
        }
    }

    /// Reads until the answer is decided, the server closes, or `timeout` seconds pass.
    func readUntilDecided(timeout: Double) -> LoopbackExchange {
        var exchange = LoopbackExchange()
        let deadline = Date().addingTimeInterval(timeout)
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            while let event = reader.next() {
                exchange.events.append(event)
                if exchange.isDecided(event) { return exchange }
            }
            guard Date() < deadline else { return exchange }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000))) > 0 else { return exchange }
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            guard count > 0 else {
                exchange.closed = true
                return exchange
            }
            reader.feed(Array(buffer[0..<count]))
        }
    }
}
