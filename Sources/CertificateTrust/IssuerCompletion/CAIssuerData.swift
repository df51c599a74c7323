internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

extension X509Certificate {
    /// The caIssuers URIs of the certificate's Authority Information Access extension, in order (what trustd reads
    /// as `SecCertificateGetCAIssuers`); empty without the extension.
    var caIssuerURLs: [String] {
        guard let raw = X509_get_ext_d2i(pointer, NID_info_access, nil, nil) else { return [] }
        let access = OpaquePointer(raw)
        defer {
            AUTHORITY_INFO_ACCESS_free(access)
            OpenSSLErrorQueue.clear()
        }
        var urls: [String] = []
        for i in 0..<atsc_sk_ACCESS_DESCRIPTION_num(access) {
            var uri: UnsafePointer<UInt8>?
            var length: Int32 = 0
            guard atsc_AIA_entry(access, i, &uri, &length) == NID_ad_ca_issuers, let uri, length > 0 else { continue }
            urls.append(String(decoding: UnsafeBufferPointer(start: uri, count: Int(length)), as: UTF8.self))
        }
        return urls
    }

    /// Whether `candidate`'s subject is this certificate's issuer name (trustd keeps only such parents of a caIssuers
    /// answer: `SecCAIssuerConvertToParents` compares normalized names; `X509_NAME_cmp` compares canonical encodings).
    func isIssuerName(of candidate: X509Certificate) -> Bool {
        X509_NAME_cmp(X509_get_issuer_name(pointer), X509_get_subject_name(candidate.pointer)) == 0
    }

    /// Whether the certificate is valid at `date` (notBefore ≤ date ≤ notAfter).
    func isValid(at date: Date) -> Bool {
        let facts = facts()
        return facts.notBefore <= date && date <= facts.notAfter
    }
}

/// The certificates of a caIssuers answer, read in the order trustd reads them (`SecCAIssuerRequest.m`,
/// `certificatesFromData`): one DER certificate (RFC 5280 §4.2.2.1), a "certs-only" CMS/PKCS#7 message (the other
/// form the RFC allows), then PEM, which some CAs serve against the RFC.
enum CAIssuerData {
    /// The certificates in `bytes`, or nil when it is none of the three forms (or a PKCS#7 message without one).
    static func certificates(_ bytes: [UInt8]) -> [X509Certificate]? {
        defer { OpenSSLErrorQueue.clear() }
        if let der = Self.derCertificate(bytes) { return [der] }
        if let bundle = Self.pkcs7Certificates(bytes), !bundle.isEmpty { return bundle }
        if let pem = OwnedX509.certificates(fromPEM: bytes), !pem.isEmpty {
            return pem.compactMap { try? X509Certificate(owned: $0) }
        }
        return nil
    }

    /// One DER certificate that is the whole of `bytes` (trailing bytes are not a certificate).
    private static func derCertificate(_ bytes: [UInt8]) -> X509Certificate? {
        guard let first = bytes.first, first == 0x30, let parsed = try? X509Certificate(der: bytes) else { return nil }
        return parsed.der.count == bytes.count ? parsed : nil
    }

    /// The certificates of a DER PKCS#7 SignedData message.
    private static func pkcs7Certificates(_ bytes: [UInt8]) -> [X509Certificate]? {
        OpenSSLErrorQueue.clear()
        let message: UnsafeMutablePointer<PKCS7>? = bytes.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer<UInt8>?($0) } ?? nil
            return d2i_PKCS7(nil, &cursor, raw.count)
        }
        guard let message else { return nil }
        defer { PKCS7_free(message) }
        guard let stack = atsc_PKCS7_signed_certificates(message) else { return nil }
        var certificates: [X509Certificate] = []
        for i in 0..<atsc_sk_X509_num(stack) {
            if let owned = OwnedX509(retaining: atsc_sk_X509_value(stack, i)),
                let certificate = try? X509Certificate(owned: owned)
            {
                certificates.append(certificate)
            }
        }
        return certificates
    }
}
