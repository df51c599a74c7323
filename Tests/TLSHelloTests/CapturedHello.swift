import Foundation

@testable import TLSHello

/// A ClientHello captured from a real client (Captures/*.hex, written by scripts/apple-hello-captures/extract.py),
/// and the little reading of ClientHellos the comparison needs.
struct CapturedHello {
    let name: String
    let bytes: [UInt8]

    /// Loads `Captures/<file>.hex` next to this source file.
    init(_ file: String) throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("Captures/\(file).hex")
        let text = try String(contentsOf: url, encoding: .utf8)
        let lines = text.split(separator: "\n")
        name = lines.first { $0.hasPrefix("# client: ") }.map { String($0.dropFirst(10)) } ?? file
        let hex = lines.filter { !$0.hasPrefix("#") }.joined()
        guard let bytes = [UInt8](hex: hex) else { throw CaptureError(description: "\(file): not hex") }
        self.bytes = bytes
    }

    struct CaptureError: Error, CustomStringConvertible { var description: String }

    /// The parts of a one-record ClientHello that the comparison looks at.
    struct Parsed {
        var sessionID: Range<Int>
        var suites: [UInt16]
        /// (type, body range), in order.
        var extensions: [(UInt16, Range<Int>)]
        /// The key_exchange ranges of the key shares.
        var keyExchanges: [Range<Int>]
        var serverName: String?
        var supportedGroups: [UInt16] = []
        var supportedVersions: [UInt16] = []
    }

    static func parse(_ bytes: [UInt8]) throws -> Parsed {
        func u16(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }
        var offset = 5 + 4 + 2 + 32
        let sessionLength = Int(bytes[offset])
        let session = offset + 1..<offset + 1 + sessionLength
        offset = session.upperBound
        let suitesLength = u16(offset)
        let suites = stride(from: offset + 2, to: offset + 2 + suitesLength, by: 2).map { UInt16(u16($0)) }
        offset += 2 + suitesLength
        offset += 1 + Int(bytes[offset])
        let end = offset + 2 + u16(offset)
        offset += 2
        var parsed = Parsed(sessionID: session, suites: suites, extensions: [], keyExchanges: [])
        while offset < end {
            let type = UInt16(u16(offset))
            let body = offset + 4..<offset + 4 + u16(offset + 2)
            parsed.extensions.append((type, body))
            switch type {
            case 0x0033:
                var at = body.lowerBound + 2
                while at < body.upperBound {
                    let length = u16(at + 2)
                    if !GreaseValues.isGrease(UInt16(u16(at))) { parsed.keyExchanges.append(at + 4..<at + 4 + length) }
                    at += 4 + length
                }
            case 0x0000:
                parsed.serverName = String(decoding: bytes[body.lowerBound + 5..<body.upperBound], as: UTF8.self)
            case 0x000A:
                parsed.supportedGroups = stride(from: body.lowerBound + 2, to: body.upperBound, by: 2).map {
                    UInt16(u16($0))
                }
            case 0x002B:
                parsed.supportedVersions = stride(from: body.lowerBound + 1, to: body.upperBound, by: 2).map {
                    UInt16(u16($0))
                }
            default:
                break
            }
            offset = body.upperBound
        }
        guard offset == end, end == bytes.count else {
            throw CaptureError(description: "extensions do not end the hello")
        }
        return parsed
    }

    /// The GREASE values the capture used (RFC 8701 values of each slot), nil without GREASE.
    func greaseValues() throws -> GreaseValues? {
        let parsed = try Self.parse(bytes)
        let extensions = parsed.extensions.map(\.0).filter(GreaseValues.isGrease)
        guard let cipher = parsed.suites.first(where: GreaseValues.isGrease), extensions.count == 2 else { return nil }
        return GreaseValues(
            cipher: cipher, group: parsed.supportedGroups.first(where: GreaseValues.isGrease) ?? 0,
            extension1: extensions[0], extension2: extensions[1],
            version: parsed.supportedVersions.first(where: GreaseValues.isGrease) ?? 0)
    }

    /// `bytes` with the random, the session id and the key shares' key_exchange bytes zeroed: what differs per
    /// connection.
    static func masked(_ bytes: [UInt8]) throws -> [UInt8] {
        let parsed = try parse(bytes)
        var out = bytes
        for range in [11..<43, parsed.sessionID] + parsed.keyExchanges {
            for index in range { out[index] = 0 }
        }
        return out
    }
}
