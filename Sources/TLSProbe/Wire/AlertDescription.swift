/// A TLS alert's description code: what a server said when it refused a handshake.
///
/// An open wire registry, so a struct over the byte rather than an enum: a code this table does not name is still
/// representable (and reported by number). The names are those of IANA's "TLS Alerts" registry (TLS
/// Parameters), from RFC 5246 §7.2, RFC 6066 §9, RFC 7507 §2 and RFC 8446 §6.
package struct AlertDescription: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The alert's description byte.
    package var rawValue: UInt8

    /// The alert with description byte `rawValue`.
    package init(rawValue: UInt8) { self.rawValue = rawValue }

    package static let closeNotify = AlertDescription(rawValue: 0)
    package static let unexpectedMessage = AlertDescription(rawValue: 10)
    package static let badRecordMAC = AlertDescription(rawValue: 20)
    package static let recordOverflow = AlertDescription(rawValue: 22)
    package static let handshakeFailure = AlertDescription(rawValue: 40)
    package static let badCertificate = AlertDescription(rawValue: 42)
    package static let unsupportedCertificate = AlertDescription(rawValue: 43)
    package static let certificateRevoked = AlertDescription(rawValue: 44)
    package static let certificateExpired = AlertDescription(rawValue: 45)
    package static let certificateUnknown = AlertDescription(rawValue: 46)
    package static let illegalParameter = AlertDescription(rawValue: 47)
    package static let unknownCA = AlertDescription(rawValue: 48)
    package static let accessDenied = AlertDescription(rawValue: 49)
    package static let decodeError = AlertDescription(rawValue: 50)
    package static let decryptError = AlertDescription(rawValue: 51)
    package static let protocolVersion = AlertDescription(rawValue: 70)
    package static let insufficientSecurity = AlertDescription(rawValue: 71)
    package static let internalError = AlertDescription(rawValue: 80)
    package static let inappropriateFallback = AlertDescription(rawValue: 86)
    package static let userCanceled = AlertDescription(rawValue: 90)
    package static let noRenegotiation = AlertDescription(rawValue: 100)
    package static let missingExtension = AlertDescription(rawValue: 109)
    package static let unsupportedExtension = AlertDescription(rawValue: 110)
    package static let unrecognizedName = AlertDescription(rawValue: 112)
    package static let badCertificateStatusResponse = AlertDescription(rawValue: 113)
    package static let unknownPSKIdentity = AlertDescription(rawValue: 115)
    package static let certificateRequired = AlertDescription(rawValue: 116)
    package static let noApplicationProtocol = AlertDescription(rawValue: 120)

    /// The registry's names, by code.
    private static let names: [UInt8: String] = [
        0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
        22: "record_overflow", 30: "decompression_failure", 40: "handshake_failure", 41: "no_certificate",
        42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked", 45: "certificate_expired",
        46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca", 49: "access_denied", 50: "decode_error",
        51: "decrypt_error", 60: "export_restriction", 70: "protocol_version", 71: "insufficient_security",
        80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled", 100: "no_renegotiation",
        109: "missing_extension", 110: "unsupported_extension", 111: "certificate_unobtainable",
        112: "unrecognized_name", 113: "bad_certificate_status_response", 114: "bad_certificate_hash_value",
        115: "unknown_psk_identity", 116: "certificate_required", 120: "no_application_protocol",
    ]

    /// The registry's name (`handshake_failure`); nil for a code it does not assign.
    package var name: String? { Self.names[rawValue] }

    /// `handshake_failure (40)`, or `alert 200` for a code the registry does not assign.
    package var description: String { name.map { "\($0) (\(rawValue))" } ?? "alert \(rawValue)" }
}
