import Foundation
import TLSHello
import TLSModel

/// One connection of ``HelloSizeProbe``: an Apple ClientHello sent whole or in two segments, and how the server
/// answered, read as far as its ServerHello (TLSHello's ``ServerFlightReader``, as ``HelloExchange`` reads it).
struct HelloSizeAttempt: Sendable {
    /// How it ended.
    var outcome: ClientSimulation.Outcome
    /// One line: what was negotiated, or how it failed.
    var detail: String
    /// Whether a TCP connection was made (counted in the profile's handshakes).
    var connected: Bool
    /// The hello's size in bytes, and the first write's when it was split.
    var helloBytes = 0
    var firstWrite: Int?
    /// The alert's description code, when the server refused with one.
    var alert: UInt8?

    /// Refused with `decode_error` (50): what a server that parsed a partial ClientHello as a whole one says.
    var isDecodeError: Bool { outcome == .refused && alert == 50 }

    /// Whether the connection ended without a TLS answer (counted in the profile's drops).
    var isDrop: Bool { connected && (outcome == .dropped || outcome == .timedOut) }

    /// The bytes of the first write of a split hello: under the MSS of every common path (1,460 on Ethernet over IPv4,
    /// 1,440 over IPv6, 1,452 under PPPoE), so the first segment on the wire is this write, as it is for the real
    /// stack's first segment, and never the whole iOS 26 hello.
    static let firstSegment = 1_400
    /// The pause between the two writes. Loopback never cuts a write into segments, and on a real path both segments
    /// usually arrive together; with TCP_NODELAY (``TCPSocket`` sets it) and this pause the server's first read
    /// holds the first segment alone, the case a server that reads once loses on a real network.
    static let pause: Duration = .milliseconds(100)

    /// Connects to the first of `addresses` that accepts (through `tunnel` when given), sends `profile`'s hello
    /// named for `sni`, in two writes when `split`, and reads the answer until `deadline`.
    static func run(
        _ profile: HelloProfile, split: Bool, addresses: [SocketAddress], tunnel: ProxyTunnel?, sni: String?,
        deadline: Deadline
    ) async -> HelloSizeAttempt {
        let built: BuiltClientHello
        do { built = try ClientHelloBuilder(profile: profile, serverName: sni, reuseKeyShares: true).build() } catch {
            return HelloSizeAttempt(
                outcome: .notRun, detail: "could not build the ClientHello: \(error)", connected: false)
        }
        var socket: TCPSocket?
        var failure = "no address to connect to"
        for address in addresses where socket == nil {
            do {
                socket = try await TCPSocket.connect(to: address, deadline: deadline)
            } catch let error as ProbeFailure {
                switch error.kind {
                case .closed:
                    return HelloSizeAttempt(outcome: .dropped, detail: "reset before the ClientHello", connected: true)
                case .timeout: return HelloSizeAttempt(outcome: .timedOut, detail: error.reason, connected: false)
                case .cancelled: return HelloSizeAttempt(outcome: .notRun, detail: error.reason, connected: false)
                default: failure = error.reason
                }
            } catch {
                failure = "\(error)"
            }
        }
        guard let socket else { return HelloSizeAttempt(outcome: .notRun, detail: failure, connected: false) }
        defer { socket.descriptor.close() }
        if let tunnel {
            do { try await tunnel.open(on: socket, deadline: deadline) } catch {
                // The proxy's failure, not the server's: nothing was learnt about the hello.
                return HelloSizeAttempt(outcome: .notRun, detail: "\(tunnel.name): \(error)", connected: true)
            }
        }
        var attempt = await exchange(built, profile: profile, split: split, on: socket, deadline: deadline)
        attempt.helloBytes = built.bytes.count
        return attempt
    }

    /// Sends the hello (split or whole) and reads the answer on a connected socket.
    private static func exchange(
        _ built: BuiltClientHello, profile: HelloProfile, split: Bool, on socket: TCPSocket, deadline: Deadline
    ) async -> HelloSizeAttempt {
        let bytes = built.bytes
        let cut = split ? min(firstSegment, bytes.count - 1) : bytes.count
        var attempt = HelloSizeAttempt(outcome: .notRun, detail: "", connected: true)
        if split { attempt.firstWrite = cut }
        var firstSent = false
        do {
            try await socket.sendAll(Array(bytes[..<cut]), deadline: deadline)
            firstSent = true
            if cut < bytes.count {
                try await Task.sleep(for: pause)
                try await socket.sendAll(Array(bytes[cut...]), deadline: deadline)
            }
        } catch let error as ProbeFailure {
            (attempt.outcome, attempt.detail) = failed(error, sending: true)
            // The rest of a split hello refused: the server reset the connection after the first segment.
            if firstSent, error.kind == .closed { attempt.detail = "the connection is reset" }
            return attempt
        } catch {
            (attempt.outcome, attempt.detail) = (.notRun, "the scan was cancelled")
            return attempt
        }
        (attempt.outcome, attempt.detail, attempt.alert) = await answer(to: profile, on: socket, deadline: deadline)
        return attempt
    }

    /// Reads the server's answer to its ServerHello (or HelloRetryRequest), an alert, a close or silence.
    private static func answer(
        to profile: HelloProfile, on socket: TCPSocket, deadline: Deadline
    ) async -> (ClientSimulation.Outcome, String, UInt8?) {
        var reader = ServerFlightReader()
        while true {
            while let event = reader.next() {
                switch event {
                case .serverHello(let hello):
                    let suite = CipherSuite(hello.cipherSuite)
                    guard profile.cipherSuites.contains(hello.cipherSuite) else {
                        return (.broken, "the server chose \(suite.ianaName), which was not offered", nil)
                    }
                    let group = hello.selectedGroup.map { ", \(NamedGroupCatalogue.name($0))" } ?? ""
                    return (.negotiated, "\(TLSVersion(rawValue: hello.version).name), \(suite.ianaName)\(group)", nil)
                case .helloRetryRequest(let retry):
                    return (.negotiated, "a HelloRetryRequest for \(NamedGroupCatalogue.name(retry.group ?? 0))", nil)
                case .alert(_, let description):
                    return (.refused, "refused with the alert \(AlertDescription(rawValue: description))", description)
                case .notTLS:
                    return (.broken, "the answer is not TLS", nil)
                case .malformed(let reason):
                    return (.broken, "a malformed answer: \(reason)", nil)
                case .certificate, .serverKeyExchange, .serverHelloDone, .otherHandshake, .encryptedRecord:
                    continue
                }
            }
            let read: TCPSocket.ReadResult
            do { read = try await socket.receive(deadline: deadline) } catch let error as ProbeFailure {
                let (outcome, detail) = failed(error, sending: false)
                return (outcome, detail, nil)
            } catch {
                return (.broken, "\(error)", nil)
            }
            switch read {
            case .data(let bytes): reader.feed(bytes)
            case .eof: return (.dropped, "the connection is closed", nil)
            case .reset: return (.dropped, "the connection is reset", nil)
            case .timeout: return (.timedOut, "no answer", nil)
            }
        }
    }

    private static func failed(_ error: ProbeFailure, sending: Bool) -> (ClientSimulation.Outcome, String) {
        switch error.kind {
        case .cancelled: return (.notRun, "the scan was cancelled")
        case .timeout: return (.timedOut, sending ? "the ClientHello could not be sent in time" : "no answer")
        default: return (.dropped, sending ? "the connection is reset while the ClientHello is sent" : error.reason)
        }
    }
}
