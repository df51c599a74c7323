/// What a ClientHello says, field by field and in order: the input of ``ClientHelloBuilder``.
///
/// A profile holds no per-connection values: the random, the session id, the key shares' keys and the GREASE values
/// are drawn by the builder (or given to it, in tests). GREASE placeholders (any RFC 8701 value, conventionally
/// ``grease``) in ``cipherSuites``, in ``HelloExtension/supportedGroups(_:)``, ``HelloExtension/keyShare(_:)`` and
/// ``HelloExtension/supportedVersions(_:)`` are replaced by the connection's value for that slot.
package struct HelloProfile: Sendable, Hashable {
    /// A short identifier, e.g. `ios9-urlsession-ats`.
    package var name: String
    /// Where its facts come from and how sure they are (a capture, a fingerprint spec, an inference).
    package var source: String
    /// The record layer's version (0x0301 for most clients, 0x0303 in the iOS 9 ATS capture).
    package var recordVersion: UInt16
    /// ClientHello.legacy_version (0x0303 for TLS 1.2 and 1.3 clients).
    package var legacyVersion: UInt16
    /// legacy_session_id's length: 0, or 32 for TLS 1.3's middlebox compatibility mode.
    package var sessionIDLength: Int
    /// The suites in order; may include 0x00FF (the renegotiation SCSV) and GREASE placeholders.
    package var cipherSuites: [UInt16]
    /// Compression methods (always `[0]` today).
    package var compressionMethods: [UInt8]
    /// The extensions in order, with their contents.
    package var extensions: [HelloExtension]

    /// A profile; every field is explicit.
    package init(
        name: String, source: String, recordVersion: UInt16 = 0x0301, legacyVersion: UInt16 = 0x0303,
        sessionIDLength: Int = 0, cipherSuites: [UInt16], compressionMethods: [UInt8] = [0],
        extensions: [HelloExtension]
    ) {
        self.name = name
        self.source = source
        self.recordVersion = recordVersion
        self.legacyVersion = legacyVersion
        self.sessionIDLength = sessionIDLength
        self.cipherSuites = cipherSuites
        self.compressionMethods = compressionMethods
        self.extensions = extensions
    }

    /// The placeholder written where a GREASE value goes.
    package static let grease: UInt16 = 0x0A0A

    /// The groups of the supported_groups extension (GREASE placeholders included), empty when it is absent.
    package var supportedGroups: [UInt16] {
        for case .supportedGroups(let groups) in extensions { return groups }
        return []
    }

    /// The highest version offered: supported_versions' highest, or legacy_version without it.
    package var highestVersion: UInt16 {
        for case .supportedVersions(let versions) in extensions {
            return versions.filter { !GreaseValues.isGrease($0) }.max() ?? legacyVersion
        }
        return legacyVersion
    }
}

/// One ClientHello extension and its contents.
package enum HelloExtension: Sendable, Hashable {
    /// server_name (0): the builder's server name; left out when it has none (an IP address, or none given).
    case serverName
    /// supported_groups (10), in order.
    case supportedGroups([UInt16])
    /// ec_point_formats (11): `[0]` (uncompressed), as every Apple client sends.
    case ecPointFormats
    /// signature_algorithms (13), in order.
    case signatureAlgorithms([UInt16])
    /// supported_versions (43), in order.
    case supportedVersions([UInt16])
    /// key_share (51): shares for these groups, in order (a GREASE placeholder sends a one-byte share).
    case keyShare([UInt16])
    /// status_request (5): OCSP, no responder ids, no extensions.
    case statusRequest
    /// signed_certificate_timestamp (18), empty.
    case signedCertificateTimestamp
    /// application_layer_protocol_negotiation (16), in order.
    case alpn([String])
    /// extended_master_secret (23), empty.
    case extendedMasterSecret
    /// renegotiation_info (0xFF01) with an empty renegotiated_connection.
    case renegotiationInfo
    /// padding (21), added as BoringSSL (and so Apple) does: when the handshake message without it would be 256 to
    /// 511 bytes long, padding brings it to `toRecordLength` (512) bytes; otherwise the extension is not sent.
    case padding(toRecordLength: Int)
    /// A GREASE extension (RFC 8701): the first in a hello is empty, the second carries one zero byte.
    case grease
    /// next_protocol_negotiation (0x3374), empty.
    case nextProtocolNegotiation
    /// psk_key_exchange_modes (45): `[1]` (psk_dhe_ke).
    case pskKeyExchangeModes
    /// compress_certificate (27): `[1]` (zlib).
    case compressCertificate
    /// session_ticket (35), empty.
    case sessionTicket
    /// Any other extension, as given.
    case raw(type: UInt16, body: [UInt8])

    /// The extension's codepoint (GREASE: the placeholder).
    package var type: UInt16 {
        switch self {
        case .serverName: 0x0000
        case .supportedGroups: 0x000A
        case .ecPointFormats: 0x000B
        case .signatureAlgorithms: 0x000D
        case .supportedVersions: 0x002B
        case .keyShare: 0x0033
        case .statusRequest: 0x0005
        case .signedCertificateTimestamp: 0x0012
        case .alpn: 0x0010
        case .extendedMasterSecret: 0x0017
        case .renegotiationInfo: 0xFF01
        case .padding: 0x0015
        case .grease: HelloProfile.grease
        case .nextProtocolNegotiation: 0x3374
        case .pskKeyExchangeModes: 0x002D
        case .compressCertificate: 0x001B
        case .sessionTicket: 0x0023
        case .raw(let type, _): type
        }
    }
}
