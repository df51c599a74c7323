import Foundation
import TLSModel

/// Where a response's bytes come from: a plain socket or a TLS connection, each read bounded by the fetch's
/// deadline.
protocol FetchByteSource {
    /// The next bytes the server sent; nil once it closed the connection.
    /// - Throws: ``HTTPFetchError`` (timeout, reset, TLS failure).
    mutating func next() throws -> [UInt8]?
}

/// Reads one HTTP/1.x response (RFC 9112): the status line and header fields (at most
/// ``ProxyTunnel/maximumHeadBytes``), then the body framed by `Content-Length`, chunked transfer coding or the
/// close of the connection, never more than ``maximumBytes`` of body.
struct HTTPResponseReader {
    /// The URL asked for, for messages.
    let url: String
    /// The most body bytes accepted.
    let maximumBytes: Int
    private var buffer: [UInt8] = []

    init(url: String, maximumBytes: Int) {
        self.url = url
        self.maximumBytes = maximumBytes
    }

    struct Head {
        var status: Int
        /// `404 Not Found`.
        var statusText: String
        /// Field names lower-cased, in order.
        var fields: [(name: String, value: String)]

        func field(_ name: String) -> String? { fields.first { $0.name == name }?.value }
    }

    /// Reads the head of the final response (interim 1xx answers are skipped).
    mutating func readHead(from source: inout some FetchByteSource) throws -> Head {
        while true {
            while ProxyTunnel.headEnd(buffer) == nil {
                if !buffer.isEmpty, !ProxyTunnel.mayBeHTTP(buffer) {
                    throw HTTPFetchError(.protocolError, url: url, reason: "\(url): the server did not answer in HTTP")
                }
                guard buffer.count < ProxyTunnel.maximumHeadBytes else {
                    throw HTTPFetchError(
                        .protocolError, url: url,
                        reason: "\(url): the answer's head is longer than \(ProxyTunnel.maximumHeadBytes) bytes")
                }
                guard let bytes = try source.next() else {
                    throw HTTPFetchError(
                        .protocolError, url: url,
                        reason: buffer.isEmpty
                            ? "\(url): the server closed the connection without answering"
                            : "\(url): the server closed the connection in the middle of its answer")
                }
                buffer += bytes
            }
            let end = ProxyTunnel.headEnd(buffer)!
            let head = Array(buffer[..<end])
            buffer.removeFirst(end)
            guard let status = ProxyTunnel.statusCode(head) else {
                throw HTTPFetchError(.protocolError, url: url, reason: "\(url): the server did not answer in HTTP")
            }
            if (100...199).contains(status) { continue }
            return Head(status: status, statusText: ProxyTunnel.statusText(head), fields: Self.fields(head))
        }
    }

    /// Reads the body `head` announces.
    mutating func readBody(_ head: Head, from source: inout some FetchByteSource) throws -> [UInt8] {
        if head.status == 204 || head.status == 304 { return [] }
        if let coding = head.field("transfer-encoding"), coding.lowercased().contains("chunked") {
            return try readChunked(from: &source)
        }
        if let text = head.field("content-length") {
            guard let length = Int(text.trimmingCharacters(in: .whitespaces)), length >= 0 else {
                throw HTTPFetchError(.protocolError, url: url, reason: "\(url): malformed Content-Length '\(text)'")
            }
            guard length <= maximumBytes else { throw tooLarge("announces \(length) bytes") }
            while buffer.count < length {
                guard let bytes = try source.next() else {
                    throw HTTPFetchError(
                        .protocolError, url: url,
                        reason: "\(url): the server closed the connection after \(buffer.count) of \(length) bytes")
                }
                buffer += bytes
            }
            return Array(buffer.prefix(length))
        }
        // No framing: the body runs to the close of the connection (`Connection: close` was asked for).
        while buffer.count <= maximumBytes, let bytes = try source.next() { buffer += bytes }
        guard buffer.count <= maximumBytes else { throw tooLarge("sent more than \(maximumBytes) bytes") }
        return buffer
    }

    private func tooLarge(_ what: String) -> HTTPFetchError {
        HTTPFetchError(.tooLarge, url: url, reason: "\(url): the body \(what), over the limit of \(maximumBytes) bytes")
    }

    /// Chunked transfer coding (RFC 9112 §7.1): decoded as it arrives, bounded by ``maximumBytes`` of data and the
    /// same again of framing.
    private mutating func readChunked(from source: inout some FetchByteSource) throws -> [UInt8] {
        var body: [UInt8] = []
        var cursor = 0
        func more() throws {
            guard let bytes = try source.next() else {
                throw HTTPFetchError(
                    .protocolError, url: url, reason: "\(url): the server closed the connection inside a chunked body")
            }
            buffer += bytes
            guard buffer.count <= maximumBytes * 2 + 65_536 else {
                throw tooLarge("sent more than \(maximumBytes) bytes")
            }
        }
        func line() throws -> String {
            while true {
                if let lf = buffer[cursor...].firstIndex(of: 0x0A) {
                    let text = String(decoding: buffer[cursor..<lf], as: UTF8.self)
                    cursor = lf + 1
                    return text.hasSuffix("\r") ? String(text.dropLast()) : text
                }
                guard buffer.count - cursor < 4_096 else {
                    throw HTTPFetchError(.protocolError, url: url, reason: "\(url): a malformed chunked body")
                }
                try more()
            }
        }
        while true {
            let sizeLine = try line()
            let sizeText = sizeLine.split(separator: ";", maxSplits: 1).first.map(String.init) ?? ""
            guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else {
                throw HTTPFetchError(.protocolError, url: url, reason: "\(url): a malformed chunk size '\(sizeLine)'")
            }
            if size == 0 {
                while try !line().isEmpty {}  // trailer fields, then the empty line
                return body
            }
            guard body.count + size <= maximumBytes else { throw tooLarge("sent more than \(maximumBytes) bytes") }
            while buffer.count - cursor < size + 2 { try more() }
            body += buffer[cursor..<(cursor + size)]
            cursor += size
            guard try line().isEmpty else {
                throw HTTPFetchError(.protocolError, url: url, reason: "\(url): a malformed chunked body")
            }
        }
    }

    /// The header fields of a head (after the status line), names lower-cased.
    static func fields(_ head: [UInt8]) -> [(name: String, value: String)] {
        let text = String(decoding: head, as: UTF8.self)
        return text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" }).dropFirst().compactMap { line in
            let line = line.hasSuffix("\r") ? line.dropLast() : line[...]
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (
                line[..<colon].trimmingCharacters(in: .whitespaces).lowercased(),
                line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            )
        }
    }
}
