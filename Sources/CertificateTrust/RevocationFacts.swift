internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// The revocation part of a certificate report: the stapled response checked (``StapledOCSPVerifier``), the leaf's
/// responders, and which certificates of the path a device would ask its responder about online
/// (`SecRevocationServer.c`, `SecPathBuilderCheckRevocation`; docs/revocation.md).
enum RevocationFacts {
    /// - Parameters:
    ///   - path: the verified path, leaf first (the chain as sent when it did not verify).
    ///   - stapled: the stapled response, DER; nil when none was stapled.
    ///   - restrictions: Apple's Valid data (nil: not judging with Apple's data, so no Valid-triggered checks).
    ///   - now: the verification time.
    static func report(
        path: [X509Certificate], stapled: [UInt8]?, restrictions: ValidRestrictions?, at now: Date
    ) -> RevocationReport {
        let staple = stapled.map { StapledOCSPVerifier.verify($0, path: path, at: now) }
        guard let leaf = path.first else { return RevocationReport(stapled: staple) }
        let online = Set(restrictions?.onlineCheckIssuers ?? [])
        let ev = couldBeEV(leaf)
        var validAsked = false  // once Valid asks for OCSP, trustd's builder asks for every certificate after it
        var checks: [OnlineRevocationCheck] = []
        for index in 0..<max(path.count - 1, 0) {
            let certificate = path[index]
            // RFC 6960's id-pkix-ocsp-nocheck: trustd checks nothing for it.
            if X509_get_ext_by_NID(certificate.pointer, NID_id_pkix_OCSP_noCheck, -1) >= 0 { continue }
            let sha256 = Hex.string(Digest.sha256(certificate.der))
            let issuerSHA = Hex.string(Digest.sha256(path[index + 1].der), uppercase: true)
            if online.contains(issuerSHA) { validAsked = true }
            // A usable stapled response settles the certificate: trustd does not ask again.
            if let staple, staple.usable, staple.certificateSHA256 == sha256 { continue }
            var reasons: [OnlineRevocationCheck.Reason] = []
            if ev { reasons.append(.extendedValidation) }
            if validAsked { reasons.append(.validDatabase) }
            guard !reasons.isEmpty else { continue }
            checks.append(
                OnlineRevocationCheck(
                    certificate: X509Certificate.text(of: X509_get_subject_name(certificate.pointer)),
                    certificateSHA256: sha256, index: index, reasons: reasons,
                    responders: certificate.ocspResponders()))
        }
        return RevocationReport(stapled: staple, leafResponders: leaf.ocspResponders(), onlineChecks: checks)
    }

    /// trustd's "could be EV" test of a leaf (`SecCertificateServer.c`, `SecCertificateVCCouldBeEV`): a
    /// certificatePolicies OID of Apple's EV list, not a CA, no certificate or CRL signing usage, RSA ≥ 2048 bits
    /// (1024 before 2014) or EC ≥ 256, and a SHA-2 signature when issued after 2015. Such a leaf makes trustd ask
    /// every certificate's responder online, whether or not the path then proves EV.
    static func couldBeEV(_ leaf: X509Certificate) -> Bool {
        guard leaf.policyOIDs().contains(where: EVPolicies.oids.contains) else { return false }
        let facts = leaf.facts()
        if facts.isCA == true { return false }
        if let usage = facts.keyUsage, usage.contains("keyCertSign") || usage.contains("cRLSign") { return false }
        let notBefore = facts.notBefore
        let jan2014 = Date(timeIntervalSince1970: 1_388_534_400)
        let jan2016 = Date(timeIntervalSince1970: 1_451_606_400)
        switch facts.keyType {
        case .rsa: if facts.keyBits < (notBefore < jan2014 ? 1024 : 2048) { return false }
        case .ec: if facts.keyBits < 256 { return false }
        default: return false
        }
        if notBefore > jan2016, let hash = facts.signatureHash, [.sha1, .md5].contains(hash) { return false }
        return true
    }
}

extension X509Certificate {
    /// The OCSP responder URLs of the certificate's authorityInfoAccess, in order; empty when it names none.
    func ocspResponders() -> [String] {
        guard let stack = X509_get1_ocsp(pointer) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        defer { X509_email_free(stack) }
        return (0..<atsc_sk_OPENSSL_STRING_num(stack)).compactMap { index in
            atsc_sk_OPENSSL_STRING_value(stack, index).map { String(cString: $0) }
        }
    }

    /// The certificatePolicies OIDs, dotted; empty without the extension.
    func policyOIDs() -> [String] {
        let count = atsc_certificate_policy_count(pointer)
        defer { OpenSSLErrorQueue.clear() }
        guard count > 0 else { return [] }
        return (0..<count).compactMap { index in
            var buffer = [CChar](repeating: 0, count: 128)
            let length = atsc_certificate_policy_oid(pointer, index, &buffer, Int32(buffer.count))
            guard length > 0, length < 128 else { return nil }
            return String(decoding: buffer.prefix(Int(length)).map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
