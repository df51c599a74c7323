import Foundation
import TLSModel

extension HandshakeResult {
    /// What one handshake attempt (or, after ``EndpointSession/step(context:version:legacy:tls13:ready:permit:)``,
    /// one step's last attempt) found, as data: code decides on the case, and ``detail`` is the report's words.
    enum Outcome {
        /// The server answered in TLS and the handshake got as far as the probe needs.
        case answered(Accepted)
        /// The server answered in TLS and declined what was offered: the one answer that says "not supported".
        case refused(Refusal)
        /// The connection was closed or reset before the handshake ended: says nothing about support.
        case dropped(Drop)
        /// No answer before the deadline (none at all, or a stall): says nothing about support.
        case silent(Silence)
        /// No connection could be made (refused, no route, a name that does not resolve).
        case unreachable(String)
        /// The peer answered, but not in TLS.
        case notTLS(PeerBytes)
        /// A handshake that broke in a way that says nothing about support (OpenSSL's words), or an answer that
        /// makes no sense for what was offered.
        case broken(String)
        /// The attempt was not made: the scan was cancelled, or the client could not be set up.
        case notRun(String)
        /// The HTTP proxy did not open the tunnel (``ProxyTunnel``): unreachable, a non-2xx answer to CONNECT, or
        /// closed before answering. Says nothing about the server. `retryable`: a 502/503/504 or a close, which may
        /// pass on a retry; a refusal such as 407 or 403 is not tried again.
        case proxyFailed(String, retryable: Bool)
    }

    /// How a server declined a handshake.
    enum Refusal {
        /// It sent a fatal alert: `code`, and OpenSSL's words for it (`said`, kept for the report's text).
        case alert(AlertDescription, said: String)
        /// Its ServerHello chose a version or suite that was not offered, or nothing could be offered (OpenSSL's
        /// words); also a version every suite of which was refused (``ATSOnlyProbe``).
        case declined(String)
        /// It closed the connection without an alert, as it does to every ClientHello it cannot serve
        /// (``EndpointSession/refusesByClosing()``).
        case closedWithoutAlert

        /// The report's words.
        var reason: String {
            switch self {
            case .alert(_, let said): return "server sent alert: \(said)"
            case .declined(let why): return why
            case .closedWithoutAlert:
                return "server closed the connection without an alert, as it does to any ClientHello it cannot serve"
            }
        }

        /// The alert the server sent; nil for a decline.
        var alert: AlertDescription? {
            if case .alert(let code, _) = self { return code }
            return nil
        }
    }

    /// Where in a connection's life it was dropped or went silent.
    enum Phase: Hashable {
        /// Waiting for (or reading) the server's answer to the ClientHello.
        case handshake
        /// The TCP connect, in the socket layer's words.
        case connect(String)
        /// Opening the proxy's tunnel, in ``ProxyTunnel``'s words.
        case tunnel(String)
        /// Sending the ClientHello (or an alert), in the socket layer's words.
        case send(String)
        /// The endpoint's overall deadline passed before the connection's turn came.
        case endpointDeadline
    }

    /// A connection the server (or something before it) closed or reset before the handshake ended.
    struct Drop: Hashable {
        /// How the connection ended.
        enum Signal: Hashable {
            /// An orderly close (FIN).
            case closed
            /// A reset (RST), or a send the peer no longer took.
            case reset
        }

        var signal: Signal
        /// Bytes the server sent first (0: a silent close).
        var afterBytes: Int
        var phase: Phase = .handshake
        /// The system's words for a reset read during the handshake (`strerror`).
        var cause: String? = nil
        /// Attempts of the step that ended in a drop or a silence, this one included (``RetryPolicy``).
        var attempts = 1
        /// Every one of the step's `attempts` (more than one) was closed before the server sent a byte.
        var everyAttemptSilent = false

        /// Closed or reset before the server sent a byte.
        var isSilent: Bool { afterBytes == 0 }

        /// The report's words.
        var reason: String {
            if attempts > 1 && everyAttemptSilent {
                // Some old stacks close without an alert on a version they do not speak; so do rate limiters.
                return "server closed the connection every time (\(attempts) attempts): could not tell"
            }
            let once: String
            switch (phase, signal) {
            case (.connect(let said), _), (.tunnel(let said), _), (.send(let said), _): once = said
            case (.endpointDeadline, _): once = "the endpoint's overall deadline passed"
            case (.handshake, .closed):
                once =
                    afterBytes == 0
                    ? "server closed the connection without answering"
                    : "server closed the connection mid-handshake after \(afterBytes) bytes"
            case (.handshake, .reset):
                let why = cause ?? "reset"
                once =
                    afterBytes == 0
                    ? "connection reset without an answer (\(why))" : "connection reset mid-handshake (\(why))"
            }
            return attempts > 1 ? "\(once) (no answer in \(attempts) attempts)" : once
        }
    }

    /// No answer before the deadline.
    struct Silence: Hashable {
        var phase: Phase
        /// Bytes the server sent before it fell silent (0: it never answered).
        var afterBytes = 0
        /// Attempts of the step that ended in a drop or a silence, this one included (``RetryPolicy``).
        var attempts = 1

        /// The report's words.
        var reason: String {
            let once: String
            switch phase {
            case .connect(let said), .tunnel(let said), .send(let said): once = said
            case .endpointDeadline: once = "the endpoint's overall deadline passed"
            case .handshake:
                once =
                    afterBytes == 0
                    ? "no answer to the ClientHello before the deadline" : "handshake stalled after \(afterBytes) bytes"
            }
            return attempts > 1 ? "\(once) (no answer in \(attempts) attempts)" : once
        }
    }
}

extension HandshakeResult.Outcome {
    /// The report's words for the outcome.
    var detail: String {
        switch self {
        case .answered(let a): return "\(a.version) \(a.suite.ianaName)"
        case .refused(let refusal): return refusal.reason
        case .dropped(let drop): return drop.reason
        case .silent(let silence): return silence.reason
        case .notTLS(let peer): return peer.description
        case .unreachable(let s), .broken(let s), .notRun(let s), .proxyFailed(let s, _): return s
        }
    }
}

/// The first bytes of a peer that does not speak TLS, and what they look like.
struct PeerBytes: Hashable, CustomStringConvertible {
    /// What the peer sent instead of a TLS record.
    enum Kind: Hashable {
        /// An HTTP response or an HTML page.
        case http
        /// Printable text.
        case text
        /// A banner of a plain-text protocol: SSH, SMTP/FTP (`220`), POP3 (`+OK`), IMAP (`* OK`).
        case banner
        /// Anything else.
        case bytes
    }

    /// The first bytes the peer sent (up to 16).
    var bytes: [UInt8]

    var kind: Kind {
        let text = String(decoding: bytes, as: UTF8.self)
        if text.hasPrefix("HTTP/") || text.lowercased().hasPrefix("<!doctype") || text.lowercased().hasPrefix("<html") {
            return .http
        }
        if !bytes.isEmpty, bytes.allSatisfy({ (0x20...0x7E).contains($0) || $0 == 0x0D || $0 == 0x0A || $0 == 0x09 }) {
            return .text
        }
        if let text = String(bytes: bytes, encoding: .ascii),
            ["SSH-", "220", "+OK", "* OK"].contains(where: { text.hasPrefix($0) })
        {
            return .banner
        }
        return .bytes
    }

    /// The report's words.
    var description: String {
        let firstLine = Self.firstLine(String(decoding: bytes, as: UTF8.self))
        switch kind {
        case .http: return "not TLS: the server answered in plain HTTP (\(firstLine))"
        case .text: return "not TLS: the server answered in plain text (\(firstLine))"
        case .banner: return "not TLS: the server sent a plain-text banner (\(firstLine))"  // ASCII: the same text
        case .bytes:
            let hex = bytes.prefix(8).map { String(format: "%02x", $0) }.joined(separator: " ")
            return "not TLS: the server sent bytes that are not a TLS record (\(hex))"
        }
    }

    /// `text` up to its first line break. Cut on scalars: Swift reads `\r\n` as one Character, which is neither
    /// `\r` nor `\n`, so a Character-wise cut kept a CRLF-ended line whole, break included.
    private static func firstLine(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.prefix(while: { $0 != "\r" && $0 != "\n" })))
    }
}
