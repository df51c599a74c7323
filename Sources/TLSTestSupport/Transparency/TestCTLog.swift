internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// A Certificate Transparency log minted per run: an EC P-256 key whose log ID is the SHA-256 of its DER
/// SubjectPublicKeyInfo (RFC 6962 §3.2). It signs SCTs for precertificate entries (embedded in a leaf through
/// ``CertificateSpec/signedSCTs``) and for X.509 entries (sent in the TLS extension or a stapled OCSP response).
///
/// List it in a test log list with ``TestCTLogListing``; leave it out to get SCTs from a log the list does not know.
///
/// `@unchecked Sendable`: the key and names are fixed in `init`; OpenSSL allows concurrent signing with one key.
package final class TestCTLog: @unchecked Sendable {
    /// The log's description in a log list (`Test Log A`).
    package let description: String
    /// The log's operator in a log list.
    package let operatorName: String
    /// The log's signing key.
    package let key: TestKey
    /// The log's public key, DER SubjectPublicKeyInfo.
    package let spki: Data
    /// The log ID: SHA-256 of ``spki``.
    package let id: Data

    /// Makes a log with a fresh key.
    /// - Throws: ``TestSupportError`` when OpenSSL cannot make or encode the key.
    package init(_ description: String, operator operatorName: String) throws {
        self.description = description
        self.operatorName = operatorName
        key = try TestKey.generateUncached(.ec(curve: "P-256"))
        spki = Data(try TestCTLog.subjectPublicKeyInfo(key))
        id = Data(TestCTLog.sha256([UInt8](spki)))
    }

    /// Base64 of ``id``, as log lists and reports spell it.
    package var idBase64: String { id.base64EncodedString() }

    /// An SCT over an X.509 entry (`entry_type` 0: the certificate's DER), for the TLS extension or OCSP.
    /// - Parameters:
    ///   - certificate: The leaf, as served.
    ///   - timestamp: The SCT's time (milliseconds are kept).
    ///   - corruptSignature: Flip a bit of the signature, so it no longer verifies.
    /// - Returns: The TLS-encoded `SignedCertificateTimestamp`.
    /// - Throws: ``TestSupportError`` when signing fails.
    package func sct(for certificate: TestCertificate, at timestamp: Date, corruptSignature: Bool = false) throws
        -> Data
    {
        Data(
            try sign(entryType: 0, entry: Self.u24([UInt8](certificate.der)), at: timestamp, corrupt: corruptSignature))
    }

    /// An SCT over a precertificate entry (`entry_type` 1): the issuer's key hash and the TBSCertificate without the
    /// SCT list and poison extensions (RFC 6962 §3.2).
    func precertificateSCT(tbs: [UInt8], issuerKeyHash: [UInt8], at timestamp: Date, corrupt: Bool) throws -> [UInt8] {
        try sign(entryType: 1, entry: issuerKeyHash + Self.u24(tbs), at: timestamp, corrupt: corrupt)
    }

    /// `SignedCertificateTimestamp` (v1): version, log ID, timestamp, no extensions, then the digitally-signed
    /// struct (SHA-256, ECDSA) over version, signature_type certificate_timestamp, timestamp, the entry type, the
    /// entry and empty extensions.
    private func sign(entryType: UInt16, entry: [UInt8], at timestamp: Date, corrupt: Bool) throws -> [UInt8] {
        let milliseconds = UInt64(max(0, (timestamp.timeIntervalSince1970 * 1000).rounded(.down)))
        let time = (0..<8).reversed().map { UInt8(truncatingIfNeeded: milliseconds >> (UInt64($0) * 8)) }
        let signed: [UInt8] = [0, 0] + time + Self.u16(Int(entryType)) + entry + Self.u16(0)
        var signature = try Self.ecdsaSHA256(signed, key: key)
        // The last byte is inside the DER INTEGER s: the signature still parses, and no longer verifies.
        if corrupt, let last = signature.indices.last { signature[last] ^= 0x01 }
        return [0] + [UInt8](id) + time + Self.u16(0) + [4, 3] + Self.u16(signature.count) + signature
    }

    /// The TLS-encoded `SignedCertificateTimestampList` of `scts` (RFC 6962 §3.3): what the TLS extension carries
    /// and what the certificate and OCSP extensions wrap in an OCTET STRING.
    package static func list(_ scts: [Data]) -> Data {
        let body = scts.flatMap { u16($0.count) + [UInt8]($0) }
        return Data(u16(body.count) + body)
    }

    static func ecdsaSHA256(_ data: [UInt8], key: TestKey) throws -> [UInt8] {
        OpenSSLErrorQueue.clear()
        guard let context = EVP_MD_CTX_new() else { throw TestSupportError.openSSL(.certificate, "EVP_MD_CTX_new") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit(context, nil, EVP_sha256(), nil, key.pointer) == 1 else {
            throw TestSupportError.openSSL(.certificate, "EVP_DigestSignInit")
        }
        var length = 0
        guard EVP_DigestSign(context, nil, &length, data, data.count) == 1 else {
            throw TestSupportError.openSSL(.certificate, "EVP_DigestSign (length)")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard EVP_DigestSign(context, &signature, &length, data, data.count) == 1 else {
            throw TestSupportError.openSSL(.certificate, "EVP_DigestSign")
        }
        return Array(signature.prefix(length))
    }

    /// The DER SubjectPublicKeyInfo of `key`.
    static func subjectPublicKeyInfo(_ key: TestKey) throws -> [UInt8] {
        OpenSSLErrorQueue.clear()
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_PUBKEY(key.pointer, &buffer)
        guard length > 0, let buffer else { throw TestSupportError.openSSL(.certificate, "i2d_PUBKEY") }
        defer { atsc_OPENSSL_free(buffer) }
        return Array(UnsafeBufferPointer(start: buffer, count: Int(length)))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: 32)
        var length: UInt32 = 0
        _ = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &out, &length, EVP_sha256(), nil) }
        return out
    }

    static func u16(_ value: Int) -> [UInt8] { [UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    static func u24(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8(bytes.count >> 16 & 0xFF), UInt8(bytes.count >> 8 & 0xFF), UInt8(bytes.count & 0xFF)] + bytes
    }
}

/// One real SCT to embed in a leaf (``CertificateSpec/signedSCTs``): which log signs it, when, and whether its
/// signature is spoiled.
package struct SCTSpec: Sendable {
    package var log: TestCTLog
    package var timestamp: Date
    package var corruptSignature: Bool

    /// - Parameters:
    ///   - log: The signing log.
    ///   - timestamp: The SCT's time (default: an hour ago).
    ///   - corruptSignature: Flip a bit of the signature.
    package init(
        _ log: TestCTLog, at timestamp: Date = Date().addingTimeInterval(-3_600), corruptSignature: Bool = false
    ) {
        self.log = log
        self.timestamp = timestamp
        self.corruptSignature = corruptSignature
    }
}
