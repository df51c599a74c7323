internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// OCSP responses to staple (``TLSServerConfiguration/ocspStaple``), minted with OpenSSL's OCSP API.
package enum TestOCSPResponse {
    /// The status a response gives.
    package enum Status: Sendable {
        case good
        /// Revoked at `at` with the CRLReason code `reason` (nil: no reason given).
        case revoked(at: Date, reason: Int?)
        case unknown
    }

    /// A successful response saying `leaf` is good, signed by `issuer`, whose single response carries `scts` in the
    /// CT SCT list extension (1.3.6.1.4.1.11129.2.4.5) when there are any.
    /// - Parameters:
    ///   - leaf: The certificate the response is about.
    ///   - issuer: Its issuer, which signs the response.
    ///   - scts: TLS-encoded SCTs over X.509 entries (``TestCTLog/sct(for:at:corruptSignature:)``).
    ///   - now: thisUpdate (nextUpdate is a week later).
    /// - Returns: The DER `OCSPResponse`.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    package static func good(
        for leaf: TestCertificate, issuer: TestCertificate, scts: [Data] = [], now: Date = Date()
    ) throws -> Data {
        try make(for: leaf, issuer: issuer, scts: scts, thisUpdate: now)
    }

    /// A successful basic response about `leaf` (as issued by `issuer`).
    /// - Parameters:
    ///   - leaf: The certificate the single response is about.
    ///   - issuer: Its issuer: the CertID hashes its name and key.
    ///   - status: What the single response says.
    ///   - signer: Who signs (default: `issuer`): a delegated responder, or a certificate with the issuer's name and
    ///     another key (a signature that does not verify with the issuer's key).
    ///   - includeSigner: Carry the signer's certificate in the response (`certs`).
    ///   - responderIDByKey: Name the signer by the SHA-1 of its key (default: by its subject name).
    ///   - scts: SCTs for the single response's CT extension.
    ///   - thisUpdate: thisUpdate (producedAt is the signing time: now).
    ///   - nextUpdate: nextUpdate (default a week after thisUpdate; `.distantPast` leaves it out).
    ///   - digest: The CertID's hash (SHA-1 by default, as most responders use).
    /// - Returns: The DER `OCSPResponse`.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    package static func make(
        for leaf: TestCertificate, issuer: TestCertificate, status: Status = .good, signer: TestCertificate? = nil,
        includeSigner: Bool = false, responderIDByKey: Bool = false, scts: [Data] = [], thisUpdate: Date = Date(),
        nextUpdate: Date? = nil, digest: TestDigest = .sha1
    ) throws -> Data {
        OpenSSLErrorQueue.clear()
        let md = digest == .sha256 ? EVP_sha256() : digest == .sha384 ? EVP_sha384() : EVP_sha1()
        guard let id = OCSP_cert_to_id(md, leaf.x509.pointer, issuer.x509.pointer) else {
            throw TestSupportError.openSSL(.certificate, "OCSP_cert_to_id")
        }
        defer { OCSP_CERTID_free(id) }
        guard let basic = OCSP_BASICRESP_new() else {
            throw TestSupportError.openSSL(.certificate, "OCSP_BASICRESP_new")
        }
        defer { OCSP_BASICRESP_free(basic) }
        let next = nextUpdate ?? thisUpdate.addingTimeInterval(7 * 86_400)
        let thisTime = ASN1_TIME_set(nil, time_t(thisUpdate.timeIntervalSince1970))
        let nextTime = next == .distantPast ? nil : ASN1_TIME_set(nil, time_t(next.timeIntervalSince1970))
        var revokedTime: UnsafeMutablePointer<ASN1_TIME>?
        defer {
            ASN1_TIME_free(thisTime)
            ASN1_TIME_free(nextTime)
            ASN1_TIME_free(revokedTime)
        }
        let code: Int32
        var reasonCode: Int32 = -1  // OCSP_REVOKED_STATUS_NOSTATUS: no reason extension
        switch status {
        case .good: code = V_OCSP_CERTSTATUS_GOOD
        case .unknown: code = V_OCSP_CERTSTATUS_UNKNOWN
        case .revoked(let at, let reason):
            code = V_OCSP_CERTSTATUS_REVOKED
            revokedTime = ASN1_TIME_set(nil, time_t(at.timeIntervalSince1970))
            reasonCode = reason.map(Int32.init) ?? -1
        }
        guard
            let single = OCSP_basic_add1_status(basic, id, code, reasonCode, revokedTime, thisTime, nextTime)
        else { throw TestSupportError.openSSL(.certificate, "OCSP_basic_add1_status") }
        if !scts.isEmpty {
            let ext = try CertificateBuilder.rawExtension(
                NID_ct_cert_scts, SCTList.extensionValue(list: TestCTLog.list(scts)))
            defer { X509_EXTENSION_free(ext) }
            guard OCSP_SINGLERESP_add_ext(single, ext, -1) == 1 else {
                throw TestSupportError.openSSL(.certificate, "OCSP_SINGLERESP_add_ext")
            }
        }
        let signer = signer ?? issuer
        let flags = UInt(includeSigner ? 0 : OCSP_NOCERTS) | UInt(responderIDByKey ? OCSP_RESPID_KEY : 0)
        guard OCSP_basic_sign(basic, signer.x509.pointer, signer.key.pointer, EVP_sha256(), nil, flags) == 1 else {
            throw TestSupportError.openSSL(.certificate, "OCSP_basic_sign")
        }
        return try encode(basic)
    }

    private static func encode(_ basic: OpaquePointer?, status: Int32 = OCSP_RESPONSE_STATUS_SUCCESSFUL) throws -> Data
    {
        guard let response = OCSP_response_create(status, basic) else {
            throw TestSupportError.openSSL(.certificate, "OCSP_response_create")
        }
        defer { OCSP_RESPONSE_free(response) }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_OCSP_RESPONSE(response, &buffer)
        guard length > 0, let buffer else { throw TestSupportError.openSSL(.certificate, "i2d_OCSP_RESPONSE") }
        defer { atsc_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }

    /// An `OCSPResponse` with an unsuccessful status (`tryLater` is 3) and no response bytes.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    package static func unsuccessful(status: Int32 = 3) throws -> Data {
        OpenSSLErrorQueue.clear()
        return try encode(nil, status: status)
    }
}
