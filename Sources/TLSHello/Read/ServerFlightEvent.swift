/// One thing the server's flight said, in the order it said it.
package enum ServerFlightEvent: Sendable, Hashable {
    /// A ServerHello: the server accepted the hello and chose these.
    case serverHello(ServerHelloFacts)
    /// A HelloRetryRequest (RFC 8446 §4.1.3: a ServerHello with the special random): the server wants another
    /// key share (or a cookie) before it goes on.
    case helloRetryRequest(HelloRetryRequestFacts)
    /// TLS ≤ 1.2 Certificate: the DER certificates, leaf first.
    case certificate([[UInt8]])
    /// TLS ≤ 1.2 ServerKeyExchange: the ephemeral group it uses.
    case serverKeyExchange(ServerKeyExchangeFacts)
    /// TLS ≤ 1.2 ServerHelloDone: the server's first flight is complete.
    case serverHelloDone
    /// Another handshake message in the clear (CertificateStatus, CertificateRequest, …): its type.
    case otherHandshake(type: UInt8)
    /// A TLS 1.3 encrypted record (application_data after the ServerHello), header included: the first one holds
    /// EncryptedExtensions (``TLS13Proof``).
    case encryptedRecord([UInt8])
    /// An alert in the clear: `level` 1 warning, 2 fatal; `description` as RFC 8446 §6 (40 handshake_failure,
    /// 70 protocol_version, 71 insufficient_security, 112 unrecognized_name, …).
    case alert(level: UInt8, description: UInt8)
    /// The first bytes are not a TLS record (a plain-text server, "HTTP/", an SSH banner): up to 16 of them.
    case notTLS(firstBytes: [UInt8])
    /// Records or messages that do not parse; nothing after it is read.
    case malformed(reason: String)
}

/// What a ServerHello says.
package struct ServerHelloFacts: Sendable, Hashable {
    /// ServerHello.legacy_version.
    package var legacyVersion: UInt16
    /// The negotiated version: supported_versions' selection when present (TLS 1.3), else legacy_version.
    package var version: UInt16
    /// The server's random.
    package var random: [UInt8]
    /// The session id echoed or assigned.
    package var sessionID: [UInt8]
    /// The suite chosen.
    package var cipherSuite: UInt16
    /// The compression method chosen.
    package var compressionMethod: UInt8
    /// The extension types, in order.
    package var extensionTypes: [UInt16]
    /// key_share's group (TLS 1.3).
    package var selectedGroup: UInt16?
    /// key_share's key_exchange bytes (TLS 1.3): the server's public key, or for a hybrid its ciphertext and key.
    package var keyShare: [UInt8]?
    /// The protocol ALPN selected.
    package var alpn: String?
    /// Whether extended_master_secret was echoed.
    package var extendedMasterSecret: Bool
    /// Whether renegotiation_info was sent.
    package var renegotiationInfo: Bool
    /// The handshake message (type, length, body): the transcript's second entry.
    package var message: [UInt8]
}

/// What a HelloRetryRequest says.
package struct HelloRetryRequestFacts: Sendable, Hashable {
    /// The version selected (supported_versions; 0x0304).
    package var version: UInt16
    /// The suite the server will use.
    package var cipherSuite: UInt16
    /// The group it wants a share for (key_share), nil when it only sent a cookie.
    package var group: UInt16?
    /// The cookie extension's body, to echo in the second ClientHello; nil when it sent none.
    package var cookie: [UInt8]?
    /// Whether it sent a cookie.
    package var hasCookie: Bool { cookie != nil }
    /// The extension types, in order.
    package var extensionTypes: [UInt16]
    /// The handshake message.
    package var message: [UInt8]
}

/// The ephemeral key exchange a TLS ≤ 1.2 ServerKeyExchange announces.
package enum ServerKeyExchangeFacts: Sendable, Hashable {
    /// ECDHE on this named group (RFC 8422 §5.4).
    case ecdhe(group: UInt16)
    /// ECDHE with explicit curve parameters (curve_type 1 or 2): deprecated, no name.
    case ecdheExplicit
    /// Finite-field DHE: the prime's size in bits, and the RFC 7919 group it equals, if any.
    case dhe(primeBits: Int, ffdheGroup: UInt16?)
    /// A key exchange whose ServerKeyExchange is not read (PSK hints, SRP, …).
    case other
}
