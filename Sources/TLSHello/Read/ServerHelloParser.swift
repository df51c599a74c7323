/// Parses a ServerHello handshake message (RFC 8446 §4.1.3, RFC 5246 §7.4.1.3) into facts, telling a
/// HelloRetryRequest by its special random.
enum ServerHelloParser {
    /// SHA-256("HelloRetryRequest"), the random of every HelloRetryRequest (RFC 8446 §4.1.3).
    static let helloRetryRequestRandom: [UInt8] = [
        0xCF, 0x21, 0xAD, 0x74, 0xE5, 0x9A, 0x61, 0x11, 0xBE, 0x1D, 0x8C, 0x02, 0x1E, 0x65, 0xB8, 0x91,
        0xC2, 0xA2, 0x11, 0x16, 0x7A, 0xBB, 0x8C, 0x5E, 0x07, 0x9E, 0x09, 0xE2, 0xC8, 0xA8, 0x33, 0x9C,
    ]

    static func parse(_ message: [UInt8]) throws(WireError) -> ServerFlightEvent {
        var reader = ByteReader(message, 4..<message.count)
        let legacyVersion = try reader.u16()
        let random = try reader.take(32)
        let sessionID = try reader.vector(1)
        guard sessionID.count <= 32 else { throw WireError("session id of \(sessionID.count) bytes") }
        let suite = try reader.u16()
        let compression = try reader.u8()
        let isRetry = random == helloRetryRequestRandom
        var types: [UInt16] = []
        var version = legacyVersion
        var group: UInt16?
        var share: [UInt8]?
        var alpn: String?
        var ems = false
        var reneg = false
        var cookie: [UInt8]?
        if !reader.isEmpty {  // TLS ≤ 1.2 servers may send no extension block at all
            var extensions = ByteReader(try reader.vector(2))
            while !extensions.isEmpty {
                let type = try extensions.u16()
                let body = try extensions.vector(2)
                guard !types.contains(type) else { throw WireError("extension \(type) twice") }
                types.append(type)
                var data = ByteReader(body)
                switch type {
                case 0x002B:
                    version = try data.u16()
                case 0x0033:
                    group = try data.u16()
                    if !isRetry { share = try data.vector(2) }
                case 0x0010:
                    var list = ByteReader(try data.vector(2))
                    alpn = String(decoding: try list.vector(1), as: UTF8.self)
                case 0x0017:
                    ems = true
                case 0xFF01:
                    reneg = true
                case 0x002C:
                    cookie = body
                default:
                    break
                }
            }
        }
        guard reader.isEmpty else { throw WireError("\(reader.remaining) bytes after the extensions") }
        if isRetry {
            return .helloRetryRequest(
                HelloRetryRequestFacts(
                    version: version, cipherSuite: suite, group: group, cookie: cookie, extensionTypes: types,
                    message: message))
        }
        return .serverHello(
            ServerHelloFacts(
                legacyVersion: legacyVersion, version: version, random: random, sessionID: sessionID,
                cipherSuite: suite, compressionMethod: compression, extensionTypes: types, selectedGroup: group,
                keyShare: share, alpn: alpn, extendedMasterSecret: ems, renegotiationInfo: reneg, message: message))
    }
}
