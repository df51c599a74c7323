internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// OCSP responses to staple (``TLSServerConfiguration/ocspStaple``), minted with OpenSSL's OCSP API.
public enum TestOCSPResponse {
    /// A successful response saying `leaf` is good, signed by `issuer`, whose single response carries `scts` in the
    /// CT SCT list extension (1.3.6.1.4.1.11129.2.4.5) when there are any.
    /// - Parameters:
    ///   - leaf: The certificate the response is about.
    ///   - issuer: Its issuer, which signs the response.
    ///   - scts: TLS-encoded SCTs over X.509 entries (``TestCTLog/sct(for:at:corruptSignature:)``).
    ///   - now: thisUpdate (nextUpdate is a week later).
    /// - Returns: The DER `OCSPResponse`.
    /// - Throws: ``TestSupportError`` when OpenSSL refuses a step.
    public static func good(
        for leaf: TestCertificate, issuer: TestCertificate, scts: [Data] = [], now: Date = Date()
    ) throws -> Data {
        OpenSSLErrorQueue.clear()
        guard let id = OCSP_cert_to_id(EVP_sha1(), leaf.x509.pointer, issuer.x509.pointer) else {
            throw TestSupportError.openSSL(.certificate, "OCSP_cert_to_id")
        }
        defer { OCSP_CERTID_free(id) }
        guard let basic = OCSP_BASICRESP_new() else {
            throw TestSupportError.openSSL(.certificate, "OCSP_BASICRESP_new")
        }
        defer { OCSP_BASICRESP_free(basic) }
        let thisUpdate = ASN1_TIME_set(nil, time_t(now.timeIntervalSince1970))
        let nextUpdate = ASN1_TIME_set(nil, time_t(now.timeIntervalSince1970 + 7 * 86_400))
        defer {
            ASN1_TIME_free(thisUpdate)
            ASN1_TIME_free(nextUpdate)
        }
        guard
            let single = OCSP_basic_add1_status(
                basic, id, V_OCSP_CERTSTATUS_GOOD, 0, nil, thisUpdate, nextUpdate)
        else { throw TestSupportError.openSSL(.certificate, "OCSP_basic_add1_status") }
        if !scts.isEmpty {
            let ext = try CertificateBuilder.rawExtension(
                NID_ct_cert_scts, SCTList.extensionValue(list: TestCTLog.list(scts)))
            defer { X509_EXTENSION_free(ext) }
            guard OCSP_SINGLERESP_add_ext(single, ext, -1) == 1 else {
                throw TestSupportError.openSSL(.certificate, "OCSP_SINGLERESP_add_ext")
            }
        }
        guard OCSP_basic_sign(basic, issuer.x509.pointer, issuer.key.pointer, EVP_sha256(), nil, 0) == 1 else {
            throw TestSupportError.openSSL(.certificate, "OCSP_basic_sign")
        }
        guard let response = OCSP_response_create(OCSP_RESPONSE_STATUS_SUCCESSFUL, basic) else {
            throw TestSupportError.openSSL(.certificate, "OCSP_response_create")
        }
        defer { OCSP_RESPONSE_free(response) }
        var buffer: UnsafeMutablePointer<UInt8>?
        let length = i2d_OCSP_RESPONSE(response, &buffer)
        guard length > 0, let buffer else { throw TestSupportError.openSSL(.certificate, "i2d_OCSP_RESPONSE") }
        defer { atsc_OPENSSL_free(buffer) }
        return Data(bytes: buffer, count: Int(length))
    }
}
