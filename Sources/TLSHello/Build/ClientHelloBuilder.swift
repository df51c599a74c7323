/// Builds a ClientHello byte by byte from a ``HelloProfile``: per-connection values (random, session id, GREASE,
/// key shares) are drawn fresh unless given.
package struct ClientHelloBuilder: Sendable {
    /// What to say.
    package var profile: HelloProfile
    /// The server_name sent; nil (or an IP address literal, which RFC 6066 §3 forbids there) leaves server_name out.
    package var serverName: String?
    /// The 32-byte random; nil draws one.
    package var random: [UInt8]?
    /// The legacy_session_id; nil draws ``HelloProfile/sessionIDLength`` random bytes.
    package var sessionID: [UInt8]?
    /// The GREASE values; nil draws them (RFC 8701: fresh per connection).
    package var grease: GreaseValues?
    /// Whether key shares are the process's one key pair per group (``KeyShareSecret/reused(group:)``) rather than
    /// fresh ones: a scanner's hellos carry no secret worth a fresh key, and a P-384 or P-521 key pair costs about a
    /// millisecond of CPU, for every hello of a scan of thousands.
    package var reuseKeyShares = false

    /// A builder; only the profile is required.
    package init(
        profile: HelloProfile, serverName: String? = nil, random: [UInt8]? = nil, sessionID: [UInt8]? = nil,
        grease: GreaseValues? = nil, reuseKeyShares: Bool = false
    ) {
        self.reuseKeyShares = reuseKeyShares
        self.profile = profile
        self.serverName = serverName
        self.random = random
        self.sessionID = sessionID
        self.grease = grease
    }

    /// The hello as records, with what it takes to read and prove the answer.
    /// - Throws: ``TLSHelloError``: `.invalidProfile` for a random that is not 32 bytes or a session id over 32,
    ///   `.unsupportedKeyShare` for a key share the engine cannot make.
    package func build() throws(TLSHelloError) -> BuiltClientHello {
        try build(reusing: nil, retryOf: nil)
    }

    /// Builds with `reusing` as the key shares instead of fresh ones (a retry that keeps its shares), recording
    /// `retryOf` for the transcript.
    func build(reusing: [KeyShareSecret]?, retryOf: BuiltClientHello.Retry?) throws(TLSHelloError) -> BuiltClientHello {
        let grease = grease ?? .random()
        let random = random ?? Self.randomBytes(32)
        let sessionID = sessionID ?? Self.randomBytes(profile.sessionIDLength)
        guard random.count == 32 else {
            throw TLSHelloError(.invalidProfile, "random is \(random.count) bytes, not 32")
        }
        guard sessionID.count <= 32 else {
            throw TLSHelloError(.invalidProfile, "session id is \(sessionID.count) bytes, over 32")
        }
        var shares: [KeyShareSecret] = reusing ?? []
        if reusing == nil {
            for case .keyShare(let groups) in profile.extensions {
                for group in groups where !GreaseValues.isGrease(group) {
                    shares.append(
                        try reuseKeyShares ? KeyShareSecret.reused(group: group) : KeyShareSecret(group: group))
                }
            }
        }
        let encoder = ExtensionEncoder(grease: grease, serverName: Self.sniName(serverName), shares: shares)
        let head = Self.head(profile, random: random, sessionID: sessionID, grease: grease)
        // Pass 1 without padding gives the length padding is computed from; pass 2 writes the padded hello.
        let unpadded = encoder.encode(profile.extensions, paddingTo: nil)
        let length = 4 + head.bytes.count + 2 + unpadded.bytes.count
        let body = encoder.encode(profile.extensions, paddingTo: length)
        var message = ByteWriter()
        message.u8(1)  // client_hello
        message.vector(3) { hello in
            hello.append(head)
            hello.vector(2) { $0.append(body) }
        }
        guard !message.overflowed else {
            throw TLSHelloError(
                .invalidProfile, "a list or name of profile \(profile.name) is too long for its length field")
        }
        return BuiltClientHello(
            bytes: Self.records(message.bytes, version: profile.recordVersion), handshakeMessage: message.bytes,
            random: random, sessionID: sessionID, keyShares: shares, grease: grease, builder: self, retryOf: retryOf)
    }

    /// legacy_version, random, session id, suites, compression methods.
    private static func head(_ profile: HelloProfile, random: [UInt8], sessionID: [UInt8], grease: GreaseValues)
        -> ByteWriter
    {
        var writer = ByteWriter()
        writer.u16(profile.legacyVersion)
        writer.append(random)
        writer.vector(1) { $0.append(sessionID) }
        writer.vector(2) { list in
            for suite in profile.cipherSuites { list.u16(GreaseValues.isGrease(suite) ? grease.cipher : suite) }
        }
        writer.vector(1) { $0.append(profile.compressionMethods) }
        return writer
    }

    /// The handshake message cut into records of at most 2^14 bytes (RFC 8446 §5.1).
    static func records(_ message: [UInt8], version: UInt16) -> [UInt8] {
        var writer = ByteWriter()
        var start = 0
        repeat {
            let end = min(start + 16384, message.count)
            writer.u8(22)
            writer.u16(version)
            writer.vector(2) { $0.append(Array(message[start..<end])) }
            start = end
        } while start < message.count
        return writer.bytes
    }

    private static func sniName(_ name: String?) -> String? {
        guard let name, !name.isEmpty else { return nil }
        let isIPv4 =
            name.split(separator: ".", omittingEmptySubsequences: false).count == 4
            && name.allSatisfy { $0 == "." || $0.isNumber }
        return isIPv4 || name.contains(":") ? nil : name
    }

    static func randomBytes(_ count: Int) -> [UInt8] {
        var generator = SystemRandomNumberGenerator()
        return (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }
}

/// A ClientHello ready to send, and what it takes to read and prove the server's answer.
package struct BuiltClientHello: Sendable {
    /// The hello as TLS records: write these bytes to the socket.
    package let bytes: [UInt8]
    /// The handshake message alone (type, length, body): the first entry of the transcript.
    package let handshakeMessage: [UInt8]
    /// The random sent.
    package let random: [UInt8]
    /// The legacy_session_id sent.
    package let sessionID: [UInt8]
    /// A private key for each key share sent, in order.
    package let keyShares: [KeyShareSecret]
    /// The GREASE values used.
    package let grease: GreaseValues
    /// What built it, with the values drawn (for ``retry(after:)``).
    let builder: ClientHelloBuilder
    /// Set on a second ClientHello: the messages before it in the transcript.
    package let retryOf: Retry?

    /// The first ClientHello and the HelloRetryRequest that a second ClientHello answers (RFC 8446 §4.4.1: the
    /// transcript starts with a message_hash of the first hello, then the HelloRetryRequest).
    package struct Retry: Sendable {
        /// The first ClientHello's handshake message.
        package let firstHello: [UInt8]
        /// The HelloRetryRequest's handshake message.
        package let helloRetryRequest: [UInt8]
    }

    /// The key share sent for `group`, if one was.
    package func keyShare(for group: UInt16) -> KeyShareSecret? { keyShares.first { $0.group == group } }

    /// The second ClientHello that answers `helloRetryRequest` on the same connection (RFC 8446 §4.1.2): the same
    /// random, session id, GREASE and extensions, with key_share replaced by one fresh share for the group asked
    /// for (or the same shares when none was asked) and the cookie echoed.
    /// - Throws: ``TLSHelloError`` `.unsupportedKeyShare` when the engine cannot make a share for the group asked.
    package func retry(after helloRetryRequest: HelloRetryRequestFacts) throws(TLSHelloError) -> BuiltClientHello {
        var next = builder
        next.random = random
        next.sessionID = sessionID
        next.grease = grease
        var extensions: [HelloExtension] = []
        for item in builder.profile.extensions {
            switch item {
            case .keyShare:
                extensions.append(.keyShare(helloRetryRequest.group.map { [$0] } ?? keyShares.map(\.group)))
                if let cookie = helloRetryRequest.cookie { extensions.append(.raw(type: 0x002C, body: cookie)) }
            default:
                extensions.append(item)
            }
        }
        next.profile.extensions = extensions
        let reused = helloRetryRequest.group == nil ? keyShares : nil
        return try next.build(
            reusing: reused, retryOf: Retry(firstHello: handshakeMessage, helloRetryRequest: helloRetryRequest.message))
    }
}

/// Writes the extension block's contents.
private struct ExtensionEncoder {
    let grease: GreaseValues
    let serverName: String?
    let shares: [KeyShareSecret]

    /// The extensions; `paddingTo` is the handshake length without padding (nil: leave padding out).
    func encode(_ extensions: [HelloExtension], paddingTo unpaddedLength: Int?) -> ByteWriter {
        var writer = ByteWriter()
        var greaseSeen = 0
        for item in extensions {
            var type = item.type
            var body = ByteWriter()
            switch item {
            case .serverName:
                guard let serverName else { continue }
                body.vector(2) { list in
                    list.u8(0)  // host_name
                    list.vector(2) { $0.append(Array(serverName.utf8)) }
                }
            case .supportedGroups(let groups):
                body.vector(2) { list in
                    for group in groups { list.u16(GreaseValues.isGrease(group) ? grease.group : group) }
                }
            case .ecPointFormats:
                body.vector(1) { $0.u8(0) }
            case .signatureAlgorithms(let schemes):
                body.vector(2) { list in for scheme in schemes { list.u16(scheme) } }
            case .supportedVersions(let versions):
                body.vector(1) { list in
                    for version in versions { list.u16(GreaseValues.isGrease(version) ? grease.version : version) }
                }
            case .keyShare(let groups):
                body.vector(2) { list in
                    for group in groups {
                        if GreaseValues.isGrease(group) {
                            list.u16(grease.group)
                            list.vector(2) { $0.u8(0) }  // RFC 8701 §3.1: a one-byte share, as BoringSSL sends
                        } else if let share = shares.first(where: { $0.group == group }) {
                            list.u16(group)
                            list.vector(2) { $0.append(share.publicBytes) }
                        }
                    }
                }
            case .statusRequest:
                body.u8(1)  // ocsp
                body.u16(0)  // responder_id_list
                body.u16(0)  // request_extensions
            case .alpn(let protocols):
                body.vector(2) { list in for name in protocols { list.vector(1) { $0.append(Array(name.utf8)) } } }
            case .renegotiationInfo:
                body.vector(1) { _ in }
            case .padding(let target):
                // BoringSSL's rule (F5 load balancers hung on hellos of 256–511 bytes): pad to `target`, counting the
                // new extension's own 4-byte header; at least one byte when that header alone passes the target.
                guard let unpaddedLength, unpaddedLength > 0xFF, unpaddedLength < target else { continue }
                var count = target - unpaddedLength
                count = count >= 5 ? count - 4 : 1
                body.append([UInt8](repeating: 0, count: count))
            case .grease:
                type = greaseSeen == 0 ? grease.extension1 : grease.extension2
                if greaseSeen > 0 { body.u8(0) }
                greaseSeen += 1
            case .pskKeyExchangeModes:
                body.vector(1) { $0.u8(1) }  // psk_dhe_ke
            case .compressCertificate:
                body.vector(1) { $0.u16(1) }  // zlib
            case .extendedMasterSecret, .signedCertificateTimestamp, .nextProtocolNegotiation, .sessionTicket:
                break
            case .raw(_, let bytes):
                body.append(bytes)
            }
            writer.u16(type)
            writer.vector(2) { $0.append(body) }
        }
        return writer
    }
}
