import Foundation
import Pinning
import TLSModel

/// Certificates as plain values (fake DER and SPKI hashes): the evaluators never parse them.
enum PinFixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)  // 2027-01-15
    static let day: TimeInterval = 86_400
    static let host = "api.example.com"

    /// A 32-byte Base64 SPKI hash derived from a key name.
    static func spki(_ key: String) -> String {
        var bytes = [UInt8](repeating: 0, count: 32)
        for (i, b) in key.utf8.enumerated() { bytes[i % 32] &+= b &+ UInt8(i % 251) }
        return Data(bytes).base64EncodedString()
    }

    static func cert(
        _ name: String, key: String? = nil, issuer: String? = nil, isCA: Bool = false, selfSigned: Bool = false,
        keyType: KeyAlgorithm = .rsa, keyBits: Int = 2048, curve: String? = nil, notAfter: Date? = nil,
        sans: [String] = []
    ) -> CertificateFacts {
        CertificateFacts(
            subject: "CN=\(name)", issuer: "CN=\(issuer ?? name)", commonName: name, serialNumber: "01",
            notBefore: now.addingTimeInterval(-30 * day), notAfter: notAfter ?? now.addingTimeInterval(300 * day),
            keyType: keyType, keyBits: keyBits, curve: curve, signatureAlgorithm: "sha256WithRSAEncryption",
            signatureHash: .sha256, subjectAltNames: sans, isCA: isCA, selfSigned: selfSigned,
            sha256: String(repeating: fnv("\(name):\(key ?? name):\(keyBits)"), count: 4),
            spkiSHA256: spki(key ?? name), der: Data("DER:\(name):\(key ?? name):\(keyBits)".utf8))
    }

    /// FNV-1a of a name, 16 hex digits (a stable fake fingerprint).
    static func fnv(_ text: String) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in text.utf8 { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        let hex = String(h, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex
    }

    static let root = cert("Root CA", issuer: "Root CA", isCA: true, selfSigned: true)
    static let intermediate = cert("Issuing CA", issuer: "Root CA", isCA: true)
    static let leaf = cert(host, issuer: "Issuing CA", sans: [host])
    /// The leaf and intermediate the server sends; the root comes from the store.
    static let served = [leaf, intermediate]
    static let path = [leaf, intermediate, root]
    /// A self-signed staging certificate (no SAN, over-long lifetime in the real world).
    static let selfSignedLeaf = cert("staging.example.com", selfSigned: true)
    /// A certificate with the intermediate's key but other bytes (a reissued intermediate).
    static let reissuedIntermediate = cert("Issuing CA (reissued)", key: "Issuing CA", issuer: "Root CA", isCA: true)
    /// Unrelated certificates: a pin that matches nothing.
    static let otherCA = cert("Other CA", isCA: true, selfSigned: true)

    static func connection(_ served: [CertificateFacts] = served, host: String = host, warnDays: Int = 30)
        -> PinConnection
    {
        PinConnection(host: host, served: served, now: now, warnDays: warnDays)
    }
}

/// A path builder whose answers the test sets: per anchor kind, a function of the policy. It records calls.
final class FakeBuilder: TrustPathBuilding {
    struct Call: Equatable {
        var pinned: Bool
        var policy: TrustPolicyChoice
    }

    var system: (TrustPolicyChoice) -> TrustPathResult
    var pinned: ([CertificateFacts], TrustPolicyChoice) -> TrustPathResult
    private(set) var calls: [Call] = []

    init(
        system: @escaping (TrustPolicyChoice) -> TrustPathResult,
        pinned: @escaping ([CertificateFacts], TrustPolicyChoice) -> TrustPathResult = { _, _ in
            TrustPathResult(ok: false, path: [], error: "unable to get local issuer certificate")
        }
    ) {
        self.system = system
        self.pinned = pinned
    }

    /// System trust answers `ok` for exactly `policy` (any other policy fails), with `path`.
    convenience init(systemOK ok: Bool, for policy: TrustPolicyChoice, path: [CertificateFacts] = PinFixtures.path) {
        self.init(system: { asked in
            asked == policy && ok
                ? TrustPathResult(ok: true, path: path)
                : TrustPathResult(
                    ok: false, path: path,
                    error: asked == policy ? "certificate verify failed" : "unexpected policy \(asked)")
        })
    }

    func build(anchors: AnchorChoice, policy: TrustPolicyChoice) -> TrustPathResult {
        switch anchors {
        case .system:
            calls.append(Call(pinned: false, policy: policy))
            return system(policy)
        case .pinned(let certs):
            calls.append(Call(pinned: true, policy: policy))
            return pinned(certs, policy)
        }
    }
}

extension PinEvaluation {
    func step(_ name: String) -> PinStep? { steps.first { $0.name == name } }
    func check(_ kind: TrustCheckKind) -> TrustCheckApplication.Status? {
        trustChecks.first { $0.check == kind }?.status
    }
    var rules: Set<RuleID> { Set(findings.map(\.rule)) }
}
