internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// What OpenSSL reads back from a certificate: lets tests check the factory made what was asked.
package struct CertificateDetails: Sendable, Equatable {
    /// Subject commonName, nil when the subject has none.
    package var commonName: String?
    /// Issuer commonName.
    package var issuerCommonName: String?
    /// `RSA` or `EC` (OpenSSL's name for other types).
    package var keyType: String
    package var keyBits: Int
    /// OpenSSL's long name of the signature algorithm, e.g. `sha256WithRSAEncryption`.
    package var signatureAlgorithm: String
    /// SAN dNSName entries; nil when there is no SAN extension.
    package var dnsNames: [String]?
    /// SAN iPAddress entries as text; nil when there is no SAN extension.
    package var ipAddresses: [String]?
    package var notBefore: Date
    package var notAfter: Date
    /// EKU short names; nil when there is no EKU extension.
    package var extendedKeyUsage: [String]?
    /// basicConstraints cA; nil when absent.
    package var isCA: Bool?
    /// SCTs OpenSSL parsed from the CT precertificate SCT list; nil when the extension is absent.
    package var embeddedSCTs: Int?
    package var hasSubjectKeyIdentifier: Bool
    package var hasAuthorityKeyIdentifier: Bool
    /// The serial number (as OpenSSL's `long`; every serial minted here fits).
    package var serial: Int

    /// Parses `der` with OpenSSL.
    /// - Throws: ``TestSupportError`` with code `.certificate` when OpenSSL cannot parse it.
    package init(der: Data) throws {
        guard let owned = OwnedX509(der: der) else { throw TestSupportError.openSSL(.certificate, "d2i_X509") }
        let x = owned.pointer
        commonName = Self.commonName(X509_get_subject_name(x))
        issuerCommonName = Self.commonName(X509_get_issuer_name(x))
        guard let key = X509_get0_pubkey(x) else { throw TestSupportError.openSSL(.certificate, "X509_get0_pubkey") }
        keyType =
            EVP_PKEY_get_base_id(key) == EVP_PKEY_RSA
            ? "RSA"
            : (EVP_PKEY_get_base_id(key) == EVP_PKEY_EC ? "EC" : String(cString: OBJ_nid2sn(EVP_PKEY_get_base_id(key))))
        keyBits = Int(EVP_PKEY_get_bits(key))
        signatureAlgorithm = String(cString: OBJ_nid2ln(X509_get_signature_nid(x)))
        notBefore = Self.date(X509_get0_notBefore(x))
        notAfter = Self.date(X509_get0_notAfter(x))
        (dnsNames, ipAddresses) = Self.subjectAltNames(x)
        extendedKeyUsage = Self.extendedKeyUsage(x)
        var ca: Int32 = 0
        var pathLength = 0
        isCA = atsc_BASIC_CONSTRAINTS_get(x, &ca, &pathLength) == 1 ? ca == 1 : nil
        if let scts = X509_get_ext_d2i(x, NID_ct_precert_scts, nil, nil) {
            let list = OpaquePointer(scts)
            embeddedSCTs = Int(atsc_sk_SCT_num(list))
            atsc_SCT_LIST_free(list)
        } else {
            embeddedSCTs = nil
        }
        hasSubjectKeyIdentifier = X509_get_ext_by_NID(x, NID_subject_key_identifier, -1) >= 0
        hasAuthorityKeyIdentifier = X509_get_ext_by_NID(x, NID_authority_key_identifier, -1) >= 0
        serial = ASN1_INTEGER_get(X509_get0_serialNumber(x))
        OpenSSLErrorQueue.clear()  // absent extensions leave "not found" entries behind
    }

    private static func commonName(_ name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
            let data = X509_NAME_ENTRY_get_data(entry), let bytes = ASN1_STRING_get0_data(data)
        else { return nil }
        return String(decoding: UnsafeBufferPointer(start: bytes, count: Int(ASN1_STRING_length(data))), as: UTF8.self)
    }

    private static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date {
        var parts = tm()
        guard let time, ASN1_TIME_to_tm(time, &parts) == 1 else { return .distantPast }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private static func subjectAltNames(_ x: OpaquePointer) -> ([String]?, [String]?) {
        guard let raw = X509_get_ext_d2i(x, NID_subject_alt_name, nil, nil) else { return (nil, nil) }
        let names = OpaquePointer(raw)
        defer { atsc_GENERAL_NAMES_free(names) }
        var dns: [String] = []
        var ips: [String] = []
        for index in 0..<atsc_sk_GENERAL_NAME_num(names) {
            var data: UnsafePointer<UInt8>?
            var length: Int32 = 0
            let type = atsc_GENERAL_NAME_get(atsc_sk_GENERAL_NAME_value(names, index), &data, &length)
            guard let data else { continue }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(length)))
            if type == atsc_GEN_DNS() {
                dns.append(String(decoding: bytes, as: UTF8.self))
            } else if type == atsc_GEN_IPADD() {
                ips.append(ipText(bytes))
            }
        }
        return (dns, ips)
    }

    private static func ipText(_ bytes: [UInt8]) -> String {
        let family = bytes.count == 4 ? AF_INET : AF_INET6
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        guard inet_ntop(family, bytes, &buffer, socklen_t(buffer.count)) != nil else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func extendedKeyUsage(_ x: OpaquePointer) -> [String]? {
        guard let raw = X509_get_ext_d2i(x, NID_ext_key_usage, nil, nil) else { return nil }
        let usages = OpaquePointer(raw)
        defer { atsc_EXTENDED_KEY_USAGE_free(usages) }
        return (0..<atsc_sk_ASN1_OBJECT_num(usages)).map { index in
            String(cString: OBJ_nid2sn(OBJ_obj2nid(atsc_sk_ASN1_OBJECT_value(usages, index))))
        }
    }
}

extension TestCertificate {
    /// What OpenSSL reads back from this certificate.
    package var details: CertificateDetails {
        get throws { try CertificateDetails(der: der) }
    }
}
