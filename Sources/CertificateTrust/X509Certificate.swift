internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// A certificate as TLSProbe reads it: an owned OpenSSL `X509` and its DER. OpenSSL is the single
/// source of certificate facts: it parses the weak certificates (RSA-1024, SHA-1, MD5) that must be flagged.
package final class X509Certificate {
    /// The one owner of the `X509` (freed when it goes).
    let owned: OwnedX509
    /// The certificate, DER.
    package let der: [UInt8]

    /// The `X509`, lent for as long as this certificate lives.
    package var pointer: OpaquePointer { owned.pointer }

    /// Parses one DER certificate.
    /// - Throws: ``OpenSSLError`` with OpenSSL's reason when the bytes are not one.
    package init(der: [UInt8]) throws {
        guard let parsed = OwnedX509(der: der) else { throw OpenSSLError("parsing a certificate (DER)") }
        self.owned = parsed
        self.der = der
    }

    /// Takes ownership of an `X509` whose reference the caller holds.
    package convenience init(takingOwnership pointer: OpaquePointer) throws {
        try self.init(owned: OwnedX509(takingOwnership: pointer))
    }

    /// Keeps `owned` (freed with it if it cannot be encoded).
    init(owned: OwnedX509) throws {
        guard let der = owned.der() else { throw OpenSSLError("encoding a certificate") }
        self.owned = owned
        self.der = der
    }

    /// Reads every PEM certificate in a file.
    /// - Throws: ``ProbeFailure`` when the file cannot be read or holds no certificate.
    package static func loadPEMFile(_ path: String) throws -> [X509Certificate] {
        // Non-blocking and bounded as every input file (1 MB, ATSPolicy's `InputLimits.pemBytes`): a FIFO or a device
        // given as a CA file is refused, not waited on.
        let data: Data
        do { data = try RegularFileReader.read(path: path, limit: 1 << 20) } catch {
            throw ProbeFailure(.local, "cannot read CA file \(path): \(error.reason)")
        }
        guard let parsed = OwnedX509.certificates(fromPEM: data) else { throw OpenSSLError("BIO_new_mem_buf") }
        let certificates = try parsed.map { try X509Certificate(owned: $0) }
        guard !certificates.isEmpty else { throw ProbeFailure(.local, "no PEM certificate in CA file \(path)") }
        return certificates
    }

    // MARK: Facts

    /// The certificate's facts, as a report holds them.
    package func facts() -> CertificateFacts {
        let subjectName = X509_get_subject_name(pointer)
        let (sigAlg, sigHash) = signature()
        let (dns, ips) = subjectAltNames()
        var isCA: Int32 = 0
        var pathLen = -1
        let hasBC = atsc_BASIC_CONSTRAINTS_get(pointer, &isCA, &pathLen) == 1
        let key = publicKey()
        return CertificateFacts(
            subject: Self.text(of: subjectName),
            issuer: Self.text(of: X509_get_issuer_name(pointer)),
            commonName: Self.commonName(of: subjectName),
            serialNumber: serialNumber(),
            notBefore: Self.date(X509_get0_notBefore(pointer)) ?? .distantPast,
            notAfter: Self.date(X509_get0_notAfter(pointer)) ?? .distantPast,
            keyType: KeyAlgorithm(rawValue: key.type), keyBits: key.bits, curve: key.curve,
            signatureAlgorithm: sigAlg, signatureHash: sigHash.map(SignatureDigest.init(rawValue:)),
            subjectAltNames: dns, ipAddresses: ips,
            keyUsage: keyUsage(), extendedKeyUsage: extendedKeyUsage()?.map(ExtendedKeyUsage.init(rawValue:)),
            isCA: hasBC ? isCA == 1 : nil, pathLength: hasBC && pathLen >= 0 ? pathLen : nil,
            embeddedSCTs: embeddedSCTCount(),
            selfSigned: X509_self_signed(pointer, 1) == 1,
            sha256: Hex.string(Digest.sha256(der)),
            spkiSHA256: Data(Digest.sha256(spkiDER())).base64EncodedString(),
            der: Data(der))
    }

    /// DER of the SubjectPublicKeyInfo.
    func spkiDER() -> [UInt8] {
        guard let spki = X509_get_X509_PUBKEY(pointer) else { return [] }
        let length = i2d_X509_PUBKEY(spki, nil)
        guard length > 0 else { return [] }
        var out = [UInt8](repeating: 0, count: Int(length))
        _ = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509_PUBKEY(spki, &cursor)
        }
        return out
    }

    static func text(of name: OpaquePointer?) -> String {
        guard let name, let bio = MemoryBIO() else { return "" }
        X509_NAME_print_ex(bio.pointer, name, 0, atsc_XN_FLAG_RFC2253())
        return bio.string
    }

    private static func commonName(of name: OpaquePointer?) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, NID_commonName, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index), let value = X509_NAME_ENTRY_get_data(entry)
        else {
            return nil
        }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, value)
        guard length >= 0, let utf8 else { return nil }
        defer { atsc_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }

    private func serialNumber() -> String {
        guard let serial = X509_get0_serialNumber(pointer), let bn = ASN1_INTEGER_to_BN(serial, nil) else { return "" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "" }
        defer { atsc_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }

    private func publicKey() -> (type: String, bits: Int, curve: String?) {
        guard let key = X509_get0_pubkey(pointer) else { return ("unknown", 0, nil) }
        let bits = Int(EVP_PKEY_get_bits(key))
        switch EVP_PKEY_get_base_id(key) {
        case EVP_PKEY_RSA, EVP_PKEY_RSA_PSS: return ("RSA", bits, nil)
        case EVP_PKEY_EC: return ("EC", bits, CurveNames.groupName(key).map(CurveNames.curveName))
        case EVP_PKEY_ED25519: return ("Ed25519", bits, nil)
        case EVP_PKEY_ED448: return ("Ed448", bits, nil)
        case EVP_PKEY_DSA: return ("DSA", bits, nil)
        default:
            let name = EVP_PKEY_get0_type_name(key).map { String(cString: $0) } ?? "unknown"
            return (name, bits, nil)
        }
    }

    private func signature() -> (String, String?) {
        let nid = X509_get_signature_nid(pointer)
        let name = OBJ_nid2ln(nid).map { String(cString: $0) } ?? "unknown"
        var mdNID: Int32 = 0
        var pkNID: Int32 = 0
        var secBits: Int32 = 0
        var flags: UInt32 = 0
        var hash: String?
        if X509_get_signature_info(pointer, &mdNID, &pkNID, &secBits, &flags) == 1, mdNID != NID_undef {
            hash = OBJ_nid2sn(mdNID).map { String(cString: $0) }
        } else {
            // MD5 and SHA-1 signatures may not yield signature info at every security level; fall back to the NID.
            var md: Int32 = 0
            var pk: Int32 = 0
            if OBJ_find_sigid_algs(nid, &md, &pk) == 1, md != NID_undef {
                hash = OBJ_nid2sn(md).map { String(cString: $0) }
            }
        }
        return (name, hash)
    }

    private func subjectAltNames() -> ([String], [String]) {
        guard let raw = X509_get_ext_d2i(pointer, NID_subject_alt_name, nil, nil) else { return ([], []) }
        let names = OpaquePointer(raw)
        defer { atsc_GENERAL_NAMES_free(names) }
        var dns: [String] = []
        var ips: [String] = []
        for i in 0..<atsc_sk_GENERAL_NAME_num(names) {
            guard let name = atsc_sk_GENERAL_NAME_value(names, i) else { continue }
            var data: UnsafePointer<UInt8>?
            var length: Int32 = 0
            let type = atsc_GENERAL_NAME_get(name, &data, &length)
            guard let data, length > 0 else { continue }
            let bytes = Array(UnsafeBufferPointer(start: data, count: Int(length)))
            if type == atsc_GEN_DNS() {
                dns.append(String(decoding: bytes, as: UTF8.self))
            } else if type == atsc_GEN_IPADD(), bytes.count == 4 || bytes.count == 16 {
                ips.append(IPAddress(bytes: bytes).description)
            }
        }
        return (dns, ips)
    }

    private func keyUsage() -> [String]? {
        let bits = X509_get_key_usage(pointer)
        guard bits != UInt32.max else { return nil }
        let names: [(UInt32, String)] = [
            (0x80, "digitalSignature"), (0x40, "nonRepudiation"), (0x20, "keyEncipherment"),
            (0x10, "dataEncipherment"), (0x08, "keyAgreement"), (0x04, "keyCertSign"), (0x02, "cRLSign"),
            (0x01, "encipherOnly"), (0x8000, "decipherOnly"),
        ]
        return names.filter { bits & $0.0 != 0 }.map(\.1)
    }

    private func extendedKeyUsage() -> [String]? {
        guard let raw = X509_get_ext_d2i(pointer, NID_ext_key_usage, nil, nil) else { return nil }
        let eku = OpaquePointer(raw)
        defer { atsc_EXTENDED_KEY_USAGE_free(eku) }
        var usages: [String] = []
        for i in 0..<atsc_sk_ASN1_OBJECT_num(eku) {
            guard let object = atsc_sk_ASN1_OBJECT_value(eku, i) else { continue }
            let nid = OBJ_obj2nid(object)
            if nid != NID_undef, let short = OBJ_nid2sn(nid) {
                usages.append(String(cString: short))
            } else {
                var buffer = [CChar](repeating: 0, count: 128)
                OBJ_obj2txt(&buffer, Int32(buffer.count), object, 1)
                usages.append(String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
            }
        }
        return usages
    }

    private func embeddedSCTCount() -> Int {
        guard let raw = X509_get_ext_d2i(pointer, NID_ct_precert_scts, nil, nil) else {
            OpenSSLErrorQueue.clear()
            return 0
        }
        let list = OpaquePointer(raw)
        defer { atsc_SCT_LIST_free(list) }
        return Int(atsc_sk_SCT_num(list))
    }
}

/// Hex text of bytes (`String(format:)` per byte costs more than the digest itself).
package enum Hex {
    /// `bytes` as hex digits, two a byte.
    package static func string(_ bytes: [UInt8], uppercase: Bool = false) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out = [UInt8]()
        out.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            out.append(digits[Int(byte >> 4)])
            out.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }
}

/// SHA-256 through OpenSSL's EVP interface.
package enum Digest {
    /// SHA-256 of `bytes`.
    package static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { input in
            EVP_Digest(input.baseAddress, input.count, &out, &length, EVP_sha256(), nil)
        }
        return out
    }
}

/// Names of elliptic curves as the report spells them.
///
/// The prober's key-exchange naming (`KeyNames` in TLSProbe) calls these, so a curve is spelled one way.
package enum CurveNames {
    /// `P-256` for `prime256v1`, and so on.
    package static func curveName(_ openSSLName: String) -> String {
        switch openSSLName {
        case "prime256v1", "secp256r1": return "P-256"
        case "secp384r1": return "P-384"
        case "secp521r1": return "P-521"
        case "secp224r1": return "P-224"
        case "secp192r1", "prime192v1": return "P-192"
        default: return openSSLName
        }
    }

    /// OpenSSL's name of the group of an EC or DH key (`prime256v1`, `ffdhe2048`); nil when it has none.
    package static func groupName(_ pkey: OpaquePointer) -> String? {
        var buffer = [CChar](repeating: 0, count: 80)
        var length = 0
        guard EVP_PKEY_get_group_name(pkey, &buffer, buffer.count, &length) == 1 else { return nil }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
