internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// Checks a stapled OCSP response the way trustd does, with OpenSSL's OCSP API (docs/revocation.md):
///
/// - a successful response with a basic response (`SecOCSPResponse.c`, `SecOCSPResponseCreate`);
/// - a single response whose CertID is a certificate of the path with its issuer, hashed with the CertID's own
///   algorithm (SHA-1 or SHA-2), leaf first (`SecOCSPResponseCopySingleResponse`);
/// - a signer: a certificate the response carries, or the issuer, that its ResponderID names (by name, byte for
///   byte, or by the SHA-1 of its key) and whose key verifies the signature (`SecOCSPResponseCopySigner`); either
///   the issuer itself or a delegated responder: issued and signed by the issuer, with the OCSP-signing EKU, a key
///   usage with digitalSignature, not a CA, valid at the time (`SecOCSPResponseVerify`, `SecPolicyCreateOCSPSigner`);
///   for a *revoked* response that time is its producedAt, otherwise the verification time
///   (`SecORVCConsumeOCSPResponse`);
/// - its times against the verification time with trustd's 1 h 15 min leeway (`SecOCSPSingleResponseCalculateValidity`,
///   and for a good response `SecOCSPResponseCalculateValidity`).
///
/// trustd uses the time on the device's clock; atscheck uses the verification time (`--at`, or now).
enum StapledOCSPVerifier {
    /// `TRUST_TIME_LEEWAY` (`trust/headers/SecTrustPriv.h`): one hour for time zones, 15 minutes of clock skew.
    static let leeway: TimeInterval = 4_500
    /// `kSecDefaultOCSPResponseTTL` (`SecRevocationServer.c`): the life of a response without nextUpdate.
    static let defaultTTL: TimeInterval = 86_400

    /// The digests trustd computes a CertID with (`SecOCSPResponse.c`, `digestForOid`); a CertID hashed otherwise is
    /// skipped.
    static let certIDDigests: Set<Int32> = [NID_sha1, NID_sha224, NID_sha256, NID_sha384, NID_sha512]

    /// RFC 5280 §5.3.1 CRLReason names, by code (7 is unused).
    static let reasons: [Int32: String] = [
        0: "unspecified", 1: "keyCompromise", 2: "cACompromise", 3: "affiliationChanged", 4: "superseded",
        5: "cessationOfOperation", 6: "certificateHold", 8: "removeFromCRL", 9: "privilegeWithdrawn",
        10: "aACompromise",
    ]

    /// RFC 6960 §4.2.1 OCSPResponseStatus names.
    static let responseStatuses: [Int32: String] = [
        1: "malformedRequest", 2: "internalError", 3: "tryLater", 5: "sigRequired", 6: "unauthorized",
    ]

    /// The response judged against `path` (leaf first; the verified path, or the chain as sent when it did not
    /// verify) at `now`.
    static func verify(_ der: [UInt8], path: [X509Certificate], at now: Date) -> StapledOCSPFacts {
        OpenSSLErrorQueue.clear()
        defer { OpenSSLErrorQueue.clear() }
        var facts = StapledOCSPFacts(response: Data(der), checkedAt: now)
        func problem(_ kind: StapledOCSPFacts.Problem, _ detail: String) -> StapledOCSPFacts {
            facts.problem = kind
            facts.detail = detail
            return facts
        }
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor = buffer.baseAddress.map { UnsafePointer<UInt8>?($0) } ?? nil
            return d2i_OCSP_RESPONSE(nil, &cursor, buffer.count)
        }
        guard let parsed else { return problem(.malformed, "not a DER OCSPResponse") }
        defer { OCSP_RESPONSE_free(parsed) }
        let responseStatus = OCSP_response_status(parsed)
        guard responseStatus == OCSP_RESPONSE_STATUS_SUCCESSFUL else {
            let name = responseStatuses[responseStatus] ?? "status"
            return problem(.unsuccessful, "responseStatus \(name) (\(responseStatus)): the responder gave no status")
        }
        guard let basic = OCSP_response_get1_basic(parsed) else {
            return problem(.malformed, "a successful OCSPResponse without a basic response")
        }
        defer { OCSP_BASICRESP_free(basic) }
        facts.producedAt = OCSP_resp_get0_produced_at(basic).flatMap { X509Certificate.date($0) }
        guard path.count >= 2 else {
            return problem(.noIssuer, "the chain gives the leaf no issuer to check the response against")
        }

        // The single response about a certificate of the path, leaf first.
        guard let (index, single) = matchingSingleResponse(basic, path: path) else {
            return problem(.otherCertificate, otherCertificateDetail(basic, leaf: path[0]))
        }
        let certificate = path[index]
        let issuer = path[index + 1]
        facts.certificate = X509Certificate.text(of: X509_get_subject_name(certificate.pointer))
        facts.certificateSHA256 = Hex.string(Digest.sha256(certificate.der))
        var reason: Int32 = -1
        var revokedAt: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
        let status = OCSP_single_get0_status(single, &reason, &revokedAt, &thisUpdate, &nextUpdate)
        switch status {
        case atsc_V_OCSP_CERTSTATUS_GOOD(): facts.status = .good
        case atsc_V_OCSP_CERTSTATUS_REVOKED():
            facts.status = .revoked
            facts.revokedAt = revokedAt.flatMap { X509Certificate.date($0) }
            facts.reason = reason >= 0 ? reasons[reason] ?? "reason \(reason)" : nil
        case atsc_V_OCSP_CERTSTATUS_UNKNOWN(): facts.status = .unknown
        default: return problem(.malformed, "a single response without a CertStatus")
        }
        facts.thisUpdate = thisUpdate.flatMap { X509Certificate.date($0) }
        facts.nextUpdate = nextUpdate.flatMap { X509Certificate.date($0) }

        // The signer, checked at producedAt for a revoked response and at `now` otherwise.
        let signerTime = facts.status == .revoked ? facts.producedAt ?? now : now
        switch signer(of: basic, issuer: issuer, at: signerTime) {
        case .failure(let why): return problem(.unverified, why.reason)
        case .success(let (kind, subject)):
            facts.responder = kind
            facts.responderSubject = subject
        }

        if let why = outsideValidity(basic, facts: facts, at: now) {
            return problem(why.0, why.1)
        }
        return facts
    }

    /// The first single response (certificate index in the path, the response) whose CertID is a certificate of the
    /// path with its issuer.
    private static func matchingSingleResponse(_ basic: OpaquePointer, path: [X509Certificate])
        -> (Int, OpaquePointer)?
    {
        for index in 0..<(path.count - 1) {
            for j in 0..<OCSP_resp_count(basic) {
                guard let single = OCSP_resp_get0(basic, j), let id = OCSP_SINGLERESP_get0_id(single) else {
                    continue
                }
                var algorithm: OpaquePointer?
                // EVP_get_digestbynid is a macro over the name.
                guard OCSP_id_get0_info(nil, &algorithm, nil, nil, id) == 1,
                    let algorithm, certIDDigests.contains(OBJ_obj2nid(algorithm)),
                    let digest = EVP_get_digestbyname(OBJ_nid2sn(OBJ_obj2nid(algorithm))),
                    let wanted = OCSP_cert_to_id(digest, path[index].pointer, path[index + 1].pointer)
                else { continue }
                defer { OCSP_CERTID_free(wanted) }
                if OCSP_id_cmp(wanted, id) == 0 { return (index, single) }
            }
        }
        return nil
    }

    private static func otherCertificateDetail(_ basic: OpaquePointer, leaf: X509Certificate) -> String {
        let leafSerial = serialHex(X509_get0_serialNumber(leaf.pointer))
        guard let single = OCSP_resp_get0(basic, 0), let id = OCSP_SINGLERESP_get0_id(single) else {
            return "it has no single response"
        }
        var serial: UnsafeMutablePointer<ASN1_INTEGER>?
        _ = OCSP_id_get0_info(nil, nil, nil, &serial, id)
        let theirs = serialHex(serial.map { UnsafePointer($0) })
        let count = OCSP_resp_count(basic)
        return theirs == leafSerial
            ? "its CertID has the leaf's serial \(leafSerial) but another issuer's name or key"
            : "it speaks of serial \(theirs)\(count > 1 ? " (and \(count - 1) more)" : ""), not of the leaf's "
                + "serial \(leafSerial) or another certificate of the path"
    }

    private static func serialHex(_ serial: UnsafePointer<ASN1_INTEGER>?) -> String {
        guard let serial, let bn = ASN1_INTEGER_to_BN(serial, nil) else { return "?" }
        defer { BN_free(bn) }
        guard let hex = BN_bn2hex(bn) else { return "?" }
        defer { atsc_OPENSSL_free(hex) }
        return String(cString: hex)
    }

    /// Who signed the response, or why no one acceptable did.
    private static func signer(of basic: OpaquePointer, issuer: X509Certificate, at time: Date)
        -> Result<(StapledOCSPFacts.Responder, String), SignerFailure>
    {
        var candidates: [OpaquePointer] = []
        if let carried = OCSP_resp_get0_certs(basic) {
            for i in 0..<atsc_sk_X509_num_const(carried) {
                if let cert = atsc_sk_X509_value_const(carried, i) { candidates.append(cert) }
            }
        }
        candidates.append(issuer.pointer)
        var named: [String] = []
        var signer: OpaquePointer?
        for candidate in candidates where responderIDNames(basic, candidate) {
            named.append(X509Certificate.text(of: X509_get_subject_name(candidate)))
            guard let key = X509_get0_pubkey(candidate) else { continue }
            if atsc_OCSP_BASICRESP_signature_verifies(basic, key) == 1 {
                signer = candidate
                break
            }
        }
        guard let signer else {
            if named.isEmpty {
                return .failure(
                    SignerFailure("no certificate carried with it, nor the issuer, matches its ResponderID"))
            }
            return .failure(
                SignerFailure("the signature does not verify with the key of '\(named.joined(separator: "', '"))'"))
        }
        let subject = X509Certificate.text(of: X509_get_subject_name(signer))
        if OwnedX509.der(ofBorrowed: signer) == issuer.der { return .success((.issuer, subject)) }
        // A delegated responder (trustd's OCSPSigner policy, evaluated with the issuer's chain as anchors).
        let who = "the responder '\(subject)'"
        guard X509_check_issued(issuer.pointer, signer) == X509_V_OK,
            let issuerKey = X509_get0_pubkey(issuer.pointer), X509_verify(signer, issuerKey) == 1
        else { return .failure(SignerFailure("\(who) is not issued and signed by the certificate's issuer")) }
        let flags = X509_get_extension_flags(signer)
        guard flags & UInt32(EXFLAG_XKUSAGE) != 0, X509_get_extended_key_usage(signer) & UInt32(XKU_OCSP_SIGN) != 0
        else { return .failure(SignerFailure("\(who) lacks the OCSP-signing extended key usage")) }
        let usage = X509_get_key_usage(signer)
        guard usage != atsc_no_key_usage(), usage & UInt32(KU_DIGITAL_SIGNATURE) != 0 else {
            return .failure(SignerFailure("\(who) has no key usage with digitalSignature"))
        }
        var isCA: Int32 = 0
        var pathLength = -1
        if atsc_BASIC_CONSTRAINTS_get(signer, &isCA, &pathLength) == 1, isCA == 1 {
            return .failure(SignerFailure("\(who) is a CA certificate"))
        }
        let notBefore = X509Certificate.date(X509_get0_notBefore(signer)) ?? .distantFuture
        let notAfter = X509Certificate.date(X509_get0_notAfter(signer)) ?? .distantPast
        guard notBefore <= time, time <= notAfter else {
            return .failure(
                SignerFailure(
                    "\(who) is not valid at \(ISO8601DateFormatter().string(from: time)) (valid "
                        + "\(CalendarDay.string(from: notBefore)) to \(CalendarDay.string(from: notAfter)))"))
        }
        return .success((.delegated, subject))
    }

    struct SignerFailure: Error {
        let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    /// Whether the response's ResponderID names `candidate`: byName, the DER of its subject; byKey, the SHA-1 of
    /// its public key's bits (`SecOCSPResponseIsIssuer`).
    private static func responderIDNames(_ basic: OpaquePointer, _ candidate: OpaquePointer) -> Bool {
        var keyHash: UnsafePointer<ASN1_OCTET_STRING>?
        var name: OpaquePointer?
        guard OCSP_resp_get0_id(basic, &keyHash, &name) == 1 else { return false }
        if let name {
            return nameDER(name) == nameDER(X509_get_subject_name(candidate))
        }
        guard let keyHash, let data = ASN1_STRING_get0_data(keyHash) else { return false }
        let wanted = Array(UnsafeBufferPointer(start: data, count: Int(ASN1_STRING_length(keyHash))))
        var digest = [UInt8](repeating: 0, count: 20)
        var length: UInt32 = 0
        guard X509_pubkey_digest(candidate, EVP_sha1(), &digest, &length) == 1 else { return false }
        return Array(digest.prefix(Int(length))) == wanted
    }

    private static func nameDER(_ name: OpaquePointer?) -> [UInt8]? {
        guard let name else { return nil }
        let length = i2d_X509_NAME(name, nil)
        guard length > 0 else { return nil }
        var out = [UInt8](repeating: 0, count: Int(length))
        _ = out.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509_NAME(name, &cursor)
        }
        return out
    }

    /// Why the response is outside its validity at `now`, or nil.
    private static func outsideValidity(_ basic: OpaquePointer, facts: StapledOCSPFacts, at now: Date)
        -> (StapledOCSPFacts.Problem, String)?
    {
        func iso(_ date: Date) -> String { ISO8601DateFormatter().string(from: date) }
        let at = iso(now)
        if let thisUpdate = facts.thisUpdate, thisUpdate > now.addingTimeInterval(leeway) {
            return (.notYetValid, "thisUpdate \(iso(thisUpdate)) is more than 1 h 15 min after \(at)")
        }
        if let thisUpdate = facts.thisUpdate {
            let next = facts.nextUpdate ?? thisUpdate.addingTimeInterval(defaultTTL)
            if next < now.addingTimeInterval(-leeway) {
                return (
                    .expired,
                    facts.nextUpdate != nil
                        ? "nextUpdate \(iso(next)) is more than 1 h 15 min before \(at)"
                        : "it has no nextUpdate and thisUpdate \(iso(thisUpdate)) is more than 25 h 15 min before \(at)"
                )
            }
        }
        // trustd checks the whole response only before using a good one (SecOCSPResponseCalculateValidity).
        guard facts.status == .good else { return nil }
        if let producedAt = facts.producedAt, producedAt > now.addingTimeInterval(leeway) {
            return (.notYetValid, "producedAt \(iso(producedAt)) is more than 1 h 15 min after \(at)")
        }
        var latestNext: Date?
        for j in 0..<OCSP_resp_count(basic) {
            guard let single = OCSP_resp_get0(basic, j) else { continue }
            var reason: Int32 = -1
            var revoked: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            var thisUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            var nextUpdate: UnsafeMutablePointer<ASN1_GENERALIZEDTIME>?
            _ = OCSP_single_get0_status(single, &reason, &revoked, &thisUpdate, &nextUpdate)
            if let date = thisUpdate.flatMap({ X509Certificate.date($0) }), date > now.addingTimeInterval(leeway) {
                return (.notYetValid, "another single response's thisUpdate \(iso(date)) is in the future")
            }
            if let date = nextUpdate.flatMap({ X509Certificate.date($0) }), date > latestNext ?? .distantPast {
                latestNext = date
            }
        }
        if let latestNext, latestNext < now.addingTimeInterval(-leeway) {
            return (.expired, "its latest nextUpdate \(iso(latestNext)) is more than 1 h 15 min before \(at)")
        }
        return nil
    }
}
