internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// The structural checks trustd makes on a built path that OpenSSL makes differently or not at all (Apple's
/// Security source; docs/rules.md, "How the path is built"). Run on a path OpenSSL verified with
/// `X509_V_FLAG_IGNORE_CRITICAL`, so that critical extensions are judged by trustd's list, not OpenSSL's.
enum TrustdPathChecks {
    /// Extensions trustd parses (`SecCertificateInitializeExtensionParsers` in `SecCertificate.c`): critical or not,
    /// they never make a certificate fail as unknown.
    static let parsedExtensions: Set<String> = [
        "2.5.29.14", "2.5.29.15", "2.5.29.16", "2.5.29.17", "2.5.29.18", "2.5.29.19", "2.5.29.30", "2.5.29.31",
        "2.5.29.32", "2.5.29.33", "2.5.29.35", "2.5.29.36", "2.5.29.37", "2.5.29.54", "1.3.6.1.5.5.7.1.1",
        "1.3.6.1.5.5.7.1.11", "2.16.840.1.113730.1.1", "1.2.840.113533.7.65.0", "1.3.6.1.5.5.7.48.1.5",
        "1.3.6.1.5.5.7.1.3",
    ]
    /// Arcs and OIDs trustd knows without parsing them (`isAppleExtensionOID`, `isOtherKnownExtensionOID`).
    static let knownArcs: [String] = [
        "1.2.840.113635.100.6.", "1.2.840.113635.100.11.", "1.2.840.113635.100.12.", "1.2.840.113635.100.13.",
        "1.2.840.113635.100.15.", "1.3.6.1.4.1.41577.5.", "2.23.146.2.1.", "1.3.6.1.4.1.311.21.10", "2.23.148.1.1",
        "2.23.148.1.2",
    ]

    /// The first problem trustd would find with `path` (leaf first, anchor last), as OpenSSL's verify error code and a
    /// message; nil when none.
    static func problem(_ path: [X509Certificate]) -> (code: Int, text: String)? {
        defer { OpenSSLErrorQueue.clear() }
        for (index, certificate) in path.enumerated() {
            let x = certificate.pointer
            let isAnchor = index == path.count - 1 && index > 0
            let who = index == 0 ? "the leaf" : "'\(name(of: x))'"
            // SecPolicyCheckCertNonEmptySubject (SecPolicyLeafCallbacks.c), every certificate of the path.
            if X509_NAME_entry_count(X509_get_subject_name(x)) == 0 {
                let sanCritical = criticalSAN(x)
                if X509_check_ca(x) != 0 || !sanCritical {
                    return (
                        Int(X509_V_ERR_SUBJECT_NAME_EMPTY),
                        "\(who) has an empty subject"
                            + (X509_check_ca(x) != 0 ? " (a CA must have one)" : " and no critical subjectAltName")
                    )
                }
            }
            for i in 0..<X509_get_ext_count(x) {
                guard let ext = X509_get_ext(x, i) else { continue }
                let oid = objectID(X509_EXTENSION_get_object(ext))
                let known = parsedExtensions.contains(oid) || knownArcs.contains { oid.hasPrefix($0) || oid == $0 }
                // A known extension that does not decode fails the certificate (SecPolicyCheckUnparseableExtension;
                // a critical one makes the certificate unreadable).
                if parsedExtensions.contains(oid), atsc_extension_decodes(ext) == 0 {
                    return (Int(X509_V_ERR_INVALID_EXTENSION), "\(who) has an extension \(oid) that does not decode")
                }
                // trustd's AKI parser also refuses authorityCertIssuer without authorityCertSerialNumber, or the
                // reverse (SecCertificate.c, SecCEPAuthorityKeyIdentifier), which OpenSSL decodes: unparseable, on
                // every certificate, the anchor included.
                if oid == "2.5.29.35", (X509_get0_authority_issuer(x) == nil) != (X509_get0_authority_serial(x) == nil)
                {
                    return (
                        Int(X509_V_ERR_INVALID_EXTENSION),
                        "\(who) has an authority key identifier with an issuer name and no serial number, or the "
                            + "reverse, which trustd does not parse"
                    )
                }
                // Unknown critical extensions fail every certificate but the anchor (RFC 5280 §6.1.3 in
                // SecPolicyServer.c: the anchor is not processed).
                if !known, !isAnchor, X509_EXTENSION_get_critical(ext) == 1 {
                    return (
                        Int(X509_V_ERR_UNHANDLED_CRITICAL_EXTENSION),
                        "\(who) has an unknown critical extension \(oid)"
                    )
                }
            }
            // SecPVCParentCertificateChecks: every issuer, the anchor included.
            guard index > 0 else { continue }
            if X509_get_version(x) >= 2 {  // v3
                let flags = X509_get_extension_flags(x)
                if flags & UInt32(EXFLAG_BCONS) == 0 {
                    return (Int(X509_V_ERR_INVALID_CA), "issuer \(who) has no basic constraints")
                }
                if flags & UInt32(EXFLAG_CA) == 0 {
                    return (Int(X509_V_ERR_INVALID_CA), "issuer \(who) is not a CA (basic constraints cA false)")
                }
            }
            let usage = X509_get_key_usage(x)
            if usage != atsc_no_key_usage(), usage & UInt32(KU_KEY_CERT_SIGN) == 0 {
                return (Int(X509_V_ERR_KEYUSAGE_NO_CERTSIGN), "issuer \(who) has a key usage without keyCertSign")
            }
        }
        return nil
    }

    private static func criticalSAN(_ x: OpaquePointer) -> Bool {
        let index = X509_get_ext_by_NID(x, NID_subject_alt_name, -1)
        guard index >= 0, let ext = X509_get_ext(x, index) else { return false }
        return X509_EXTENSION_get_critical(ext) == 1
    }

    private static func objectID(_ object: OpaquePointer?) -> String {
        var buffer = [CChar](repeating: 0, count: 128)
        let length = OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
        guard length > 0 else { return "?" }
        return String(decoding: buffer.prefix(Int(min(length, 127))).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func name(of x: OpaquePointer) -> String {
        guard let text = X509_NAME_oneline(X509_get_subject_name(x), nil, 0) else { return "?" }
        defer { atsc_OPENSSL_free(text) }
        return String(cString: text)
    }
}
