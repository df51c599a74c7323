internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// Builds and signs an `X509` from a ``CertificateSpec`` with OpenSSL's API.
enum CertificateBuilder {
    static func build(_ spec: CertificateSpec, subjectKey: TestKey, issuer: TestCertificate?) throws -> OwnedX509 {
        OpenSSLErrorQueue.clear()
        guard let raw = X509_new() else { throw TestSupportError.openSSL(.certificate, "X509_new") }
        let x509 = OwnedX509(takingOwnership: raw)  // owned before any step that can throw
        let x = x509.pointer

        try check(X509_set_version(x, 2), "X509_set_version")  // v3
        let serial = spec.serial ?? Int.random(in: 1...Int(Int32.max) * 1_000)
        try check(ASN1_INTEGER_set(X509_get_serialNumber(x), serial), "ASN1_INTEGER_set(serial)")
        try check(
            ASN1_TIME_set(X509_getm_notBefore(x), time_t(spec.notBefore.timeIntervalSince1970)) != nil ? 1 : 0,
            "notBefore")
        try check(
            ASN1_TIME_set(X509_getm_notAfter(x), time_t(spec.notAfter.timeIntervalSince1970)) != nil ? 1 : 0, "notAfter"
        )
        try check(X509_set_pubkey(x, subjectKey.pointer), "X509_set_pubkey")

        try setSubject(x, spec)
        let issuerX509 = issuer?.x509.pointer ?? x
        try check(X509_set_issuer_name(x, X509_get_subject_name(issuerX509)), "X509_set_issuer_name")

        try addExtensions(x, spec, issuer: issuerX509, selfSigned: issuer == nil)

        let signingKey = issuer?.key ?? subjectKey
        if !spec.signedSCTs.isEmpty {
            guard let issuer else {
                throw TestSupportError(.certificate, "signed SCTs need an issuer: a self-signed leaf cannot have them")
            }
            try embedSignedSCTs(x, spec, issuer: issuer)
        }
        try sign(x, signingKey, spec.digest)
        return x509
    }

    private static func sign(_ x: OpaquePointer, _ key: TestKey, _ digest: TestDigest) throws {
        guard X509_sign(x, key.pointer, Self.digest(digest)) > 0 else {
            throw TestSupportError.openSSL(.certificate, "X509_sign(\(digest.rawValue), \(key.type))")
        }
    }

    /// Signs the certificate as it stands (that sets the TBS's signature algorithm), has each log sign that TBS as a
    /// precertificate entry, then appends the SCT list as the last extension: removing it (what a verifier does)
    /// gives back exactly the TBS the logs signed. The caller signs the certificate again.
    private static func embedSignedSCTs(_ x: OpaquePointer, _ spec: CertificateSpec, issuer: TestCertificate) throws {
        try sign(x, issuer.key, spec.digest)
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_re_X509_tbs(x, &buffer)
        guard length > 0, let buffer else { throw TestSupportError.openSSL(.certificate, "i2d_re_X509_tbs") }
        let tbs = Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
        atsc_OPENSSL_free(buffer)
        let issuerKeyHash = TestCTLog.sha256(try TestCTLog.subjectPublicKeyInfo(issuer.key))
        let scts = try spec.signedSCTs.map {
            Data(
                try $0.log.precertificateSCT(
                    tbs: tbs, issuerKeyHash: issuerKeyHash, at: $0.timestamp, corrupt: $0.corruptSignature))
        }
        try addRaw(x, NID_ct_precert_scts, SCTList.extensionValue(list: TestCTLog.list(scts)))
    }

    private static func digest(_ digest: TestDigest) -> OpaquePointer? {
        switch digest {
        case .sha256: return EVP_sha256()
        case .sha384: return EVP_sha384()
        case .sha1: return EVP_sha1()
        case .md5: return EVP_md5()
        }
    }

    private static func setSubject(_ x: OpaquePointer, _ spec: CertificateSpec) throws {
        guard let name = X509_get_subject_name(x) else {
            throw TestSupportError.openSSL(.certificate, "X509_get_subject_name")
        }
        try check(X509_NAME_add_entry_by_txt(name, "O", atsc_MBSTRING_ASC(), spec.organization, -1, -1, 0), "subject O")
        if let cn = spec.commonName {
            try check(X509_NAME_add_entry_by_txt(name, "CN", atsc_MBSTRING_ASC(), cn, -1, -1, 0), "subject CN")
        }
    }

    private static func addExtensions(
        _ x: OpaquePointer, _ spec: CertificateSpec, issuer: OpaquePointer, selfSigned: Bool
    ) throws {
        var context = X509V3_CTX()
        atsc_X509V3_set_ctx_nodb(&context)
        X509V3_set_ctx(&context, issuer, x, nil, nil, 0)

        let overridden = Set(spec.extensions.map(\.name))
        if spec.isCA {
            if !overridden.contains("basicConstraints") {
                try add(x, &context, NID_basic_constraints, "critical,CA:TRUE")
            }
            if !overridden.contains("keyUsage") { try add(x, &context, NID_key_usage, "critical,keyCertSign,cRLSign") }
        } else {
            if !overridden.contains("basicConstraints") {
                try add(x, &context, NID_basic_constraints, "critical,CA:FALSE")
            }
            let usage =
                if case .rsa = spec.key { "critical,digitalSignature,keyEncipherment" } else {
                    "critical,digitalSignature"
                }
            if !overridden.contains("keyUsage") { try add(x, &context, NID_key_usage, usage) }
        }
        for (name, value) in spec.extensions {
            let nid = OBJ_sn2nid(name)
            if nid != NID_undef {
                try add(x, &context, nid, value)
                continue
            }
            // A dotted OID OpenSSL has no name for: its value in the generic syntax (`critical,ASN1:NULL`).
            guard let ext = X509V3_EXT_nconf(nil, &context, name, value) else {
                throw TestSupportError.openSSL(.certificate, "extension \(name) = \(value)")
            }
            defer { X509_EXTENSION_free(ext) }
            try check(X509_add_ext(x, ext, -1), "X509_add_ext(\(name))")
        }
        if let eku = spec.extendedKeyUsage, !eku.isEmpty, !overridden.contains("extendedKeyUsage") {
            try add(x, &context, NID_ext_key_usage, eku.joined(separator: ","))
        }
        let sans = spec.dnsNames.map { "DNS:\($0)" } + spec.ipAddresses.map { "IP:\($0)" }
        if !sans.isEmpty {
            try add(x, &context, NID_subject_alt_name, sans.joined(separator: ","))
        }
        // Defaults, unless the spec gives its own (a duplicate extension would make OpenSSL refuse the certificate).
        if !overridden.contains("subjectKeyIdentifier") { try add(x, &context, NID_subject_key_identifier, "hash") }
        if !selfSigned && !overridden.contains("authorityKeyIdentifier") {
            // The issuer's SKI must already exist (it does: every certificate minted here has one).
            try add(x, &context, NID_authority_key_identifier, "keyid:always")
        }
        if spec.embeddedSCTs > 0 && spec.signedSCTs.isEmpty {
            try addRaw(x, NID_ct_precert_scts, SCTList.extensionValue(count: spec.embeddedSCTs))
        }
        if spec.paddingBytes > 0 {
            try add(
                x, &context, NID_netscape_comment,
                String(repeating: "atscheck huge-chain padding. ", count: spec.paddingBytes / 29 + 1))
        }
    }

    /// Adds one extension written in OpenSSL's config syntax.
    private static func add(_ x: OpaquePointer, _ context: inout X509V3_CTX, _ nid: Int32, _ value: String) throws {
        guard let ext = X509V3_EXT_nconf_nid(nil, &context, nid, value) else {
            throw TestSupportError.openSSL(
                .certificate, "X509V3_EXT_nconf_nid(\(String(cString: OBJ_nid2sn(nid))), \(value.prefix(60)))")
        }
        defer { X509_EXTENSION_free(ext) }
        try check(X509_add_ext(x, ext, -1), "X509_add_ext(\(nid))")
    }

    /// Adds one non-critical extension whose extnValue is exactly `der`.
    private static func addRaw(_ x: OpaquePointer, _ nid: Int32, _ der: [UInt8]) throws {
        let ext = try rawExtension(nid, der)
        defer { X509_EXTENSION_free(ext) }
        try check(X509_add_ext(x, ext, -1), "X509_add_ext(\(nid))")
    }

    /// A new non-critical extension whose extnValue is exactly `der`; the caller frees it.
    static func rawExtension(_ nid: Int32, _ der: [UInt8]) throws -> OpaquePointer {
        guard let octets = ASN1_OCTET_STRING_new() else {
            throw TestSupportError.openSSL(.certificate, "ASN1_OCTET_STRING_new")
        }
        defer { ASN1_OCTET_STRING_free(octets) }
        try check(ASN1_OCTET_STRING_set(octets, der, Int32(der.count)), "ASN1_OCTET_STRING_set")
        guard let ext = X509_EXTENSION_create_by_NID(nil, nid, 0, octets) else {
            throw TestSupportError.openSSL(.certificate, "X509_EXTENSION_create_by_NID(\(nid))")
        }
        return ext
    }

    private static func check(_ result: Int32, _ step: String) throws {
        guard result == 1 else { throw TestSupportError.openSSL(.certificate, step) }
    }
}

/// The CT precertificate SCT list extension value (RFC 6962 §3.3), with fake v1 SCTs.
enum SCTList {
    /// DER OCTET STRING wrapping the TLS-encoded `SignedCertificateTimestampList`.
    static func extensionValue(count: Int) -> [UInt8] {
        var list: [UInt8] = []
        for index in 0..<count {
            let sct = fakeSCT(index: index)
            list += u16(sct.count) + sct
        }
        let tls = u16(list.count) + list
        return [0x04] + derLength(tls.count) + tls
    }

    /// DER OCTET STRING wrapping a TLS-encoded `SignedCertificateTimestampList` (``TestCTLog/list(_:)``).
    static func extensionValue(list: Data) -> [UInt8] {
        [0x04] + derLength(list.count) + [UInt8](list)
    }

    /// One v1 SCT: version, log id, timestamp, no extensions, ECDSA/SHA-256 "signature" (not a real one).
    static func fakeSCT(index: Int) -> [UInt8] {
        var sct: [UInt8] = [0]  // v1
        sct += [UInt8](repeating: UInt8(truncatingIfNeeded: 0xA0 + index), count: 32)  // log id
        let timestamp = UInt64(Date().timeIntervalSince1970 * 1000)
        sct += (0..<8).reversed().map { UInt8(truncatingIfNeeded: timestamp >> (UInt64($0) * 8)) }
        sct += u16(0)  // extensions
        sct += [4, 3]  // hash sha256, signature ecdsa
        let signature = [UInt8](repeating: 0x5A, count: 70)
        sct += u16(signature.count) + signature
        return sct
    }

    private static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    private static func derLength(_ length: Int) -> [UInt8] {
        if length < 0x80 { return [UInt8(length)] }
        if length < 0x100 { return [0x81, UInt8(length)] }
        return [0x82, UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)]
    }
}
