internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

extension SCTVerifier {
    /// The transparency facts of SCTs handed in as bytes rather than read from a handshake, checked by the same code
    /// as a probe's: for test vectors made by others (Apple's CTTests data), whose servers we cannot run.
    ///
    /// The SCTs are those trustd gathers: the leaf's embedded list, the `presented` ones (as the TLS extension
    /// delivers them) and any in the OCSP responses' single responses.
    /// - Parameters:
    ///   - leafDER: the leaf, DER.
    ///   - issuerDER: its issuer, DER (needed for embedded SCTs); nil when there is none.
    ///   - presented: single SCTs, each TLS-encoded (RFC 6962 §3.2 `SignedCertificateTimestamp`), as the TLS
    ///     extension carries them.
    ///   - ocspResponses: DER OCSP responses, as a server staples them.
    ///   - logList: the log list to check against; nil: no log is known.
    ///   - now: the verification time.
    /// - Throws: ``OpenSSLError`` when a certificate does not parse.
    static func report(
        leafDER: [UInt8], issuerDER: [UInt8]?, presented: [[UInt8]] = [], ocspResponses: [[UInt8]] = [],
        logList: CTLogList?, at now: Date
    ) throws -> CertificateTransparencyReport {
        let leaf = try X509Certificate(der: leafDER)
        let issuer = try issuerDER.map { try X509Certificate(der: $0) }
        let collected =
            CollectedSCT.embedded(in: leaf) + presented.map { CollectedSCT(source: .tlsExtension, bytes: $0) }
            + ocspResponses.flatMap(CollectedSCT.stapled(in:))
        return report(
            leaf: leaf, issuer: issuer, collected: collected, logList: logList, at: now,
            requestedDelivered: !presented.isEmpty || !ocspResponses.isEmpty)
    }
}

extension CollectedSCT {
    /// The SCTs of a DER OCSP response (the `NID_ct_cert_scts` extension of each single response), read as OpenSSL's
    /// client reads a staple (`ct_extract_ocsp_response_scts`). Empty when the response does not parse or has none.
    static func stapled(in response: [UInt8]) -> [CollectedSCT] {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        let parsed: OpaquePointer? = response.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let parsed else { return [] }
        defer { OCSP_RESPONSE_free(parsed) }
        guard let basic = OCSP_response_get1_basic(parsed) else { return [] }
        defer { OCSP_BASICRESP_free(basic) }
        var collected: [CollectedSCT] = []
        for index in 0..<OCSP_resp_count(basic) {
            guard let single = OCSP_resp_get0(basic, index),
                let raw = OCSP_SINGLERESP_get1_ext_d2i(single, NID_ct_cert_scts, nil, nil)
            else { continue }
            let list = OpaquePointer(raw)
            defer { atsc_SCT_LIST_free(list) }
            collected += collect(list, source: .ocsp)
        }
        return collected
    }
}
