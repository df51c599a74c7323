import ATSPolicy
import AppleTrust
import CertificateTrust
import Foundation
import Pinning
import TLSModel

/// The `TrustPathBuilding` the pin evaluators call in production: OpenSSL builds and verifies the path
/// (TLSProbe's ``ServedChainPathBuilder``), and under the SSL policy Apple's extra checks run on the path it
/// built (``AppleSSLPolicyChecks``: SAN-only hostname, serverAuth, key sizes, SHA-1, lifetime caps). BasicX509
/// runs OpenSSL's chain, signature, constraint and date checks only.
///
/// > Warning: Creating one reads the `--ca-file` files (blocking file I/O).
package final class OpenSSLTrustPathBuilder: TrustPathBuilding {
    private let raw: ServedChainPathBuilder
    private var cache: [Key: TrustPathResult] = [:]

    private struct Key: Hashable {
        var anchors: [Data]?
        var policy: TrustPolicyChoice
    }

    /// A builder for one served chain.
    /// - Parameters:
    ///   - served: The chain the server sent, leaf first (DER in each entry).
    ///   - caFiles: `--ca-file` roots (user- or MDM-installed in Apple's terms).
    ///   - useSystemStore: Whether system roots count (tests turn it off).
    ///   - source: Whose system roots (the newest of Apple's stores by default, as iOS would build the path).
    ///   - now: The evaluation time.
    ///   - fetched: Issuers the scan fetched from caIssuers URLs (``CertificateReport/fetchedIssuerCertificates``):
    ///     part of the path under the SSL policy, as trustd completes it, not under BasicX509 (no network).
    /// - Throws: ``ProbeFailure`` when a certificate or CA file cannot be read.
    package init(
        served: [CertificateFacts], caFiles: [String], useSystemStore: Bool = true,
        source: TrustStoreSource = .apple(AppleTrustBundle.bundled), now: Date = Date(),
        fetched: [CertificateFacts] = []
    ) throws {
        raw = try ServedChainPathBuilder(
            served: served.map(\.der), caFiles: caFiles, useSystemStore: useSystemStore, source: source, now: now,
            fetched: fetched.map(\.der))
    }

    /// Builds the path to `anchors` and verifies it under `policy`; results are cached per anchors and policy.
    package func build(anchors: AnchorChoice, policy: TrustPolicyChoice) -> TrustPathResult {
        let key: Key
        switch anchors {
        case .system: key = Key(anchors: nil, policy: policy)
        case .pinned(let certs): key = Key(anchors: certs.map(\.der), policy: policy)
        }
        if let known = cache[key] { return known }
        let result = compute(key, policy: policy)
        cache[key] = result
        return result
    }

    private func compute(_ key: Key, policy: TrustPolicyChoice) -> TrustPathResult {
        let set: PathAnchorSet = key.anchors.map { .only($0) } ?? .system
        switch policy {
        case .basic:
            let built = raw.build(anchors: set)
            // trustd's basic X.509 checks refuse a weak key anywhere on the path, anchor included.
            if built.ok, let weak = AppleSSLPolicyChecks.unsupportedKeys(path: built.path).first {
                return TrustPathResult(ok: false, path: built.path, error: weak.message, checks: Self.basicChecks)
            }
            return TrustPathResult(ok: built.ok, path: built.path, error: built.error, checks: Self.basicChecks)
        case .ssl(let host):
            let built = raw.build(anchors: set, network: true)
            guard built.ok else {
                return TrustPathResult(
                    ok: false, path: built.path, error: built.error, checks: Self.sslChecks(host: host))
            }
            let anchor: SSLPolicyAnchor = key.anchors != nil ? .app : built.anchor == .custom ? .userInstalled : .system
            let failures = AppleSSLPolicyChecks.failures(path: built.path, host: host, anchor: anchor)
            return TrustPathResult(
                ok: failures.isEmpty, path: built.path,
                error: failures.isEmpty ? nil : failures.map(\.message).joined(separator: "; "),
                checks: Self.sslChecks(host: host))
        }
    }

    static let basicChecks: [TrustCheckApplication] = TrustCheckKind.allCases.map { kind in
        switch kind {
        case .chain, .dates:
            return TrustCheckApplication(
                kind, .applied, "OpenSSL X509_verify_cert as trustd builds paths, no purpose (BasicX509)")
        default: return TrustCheckApplication(kind, .skipped, "BasicX509 does not check it")
        }
    }

    static func sslChecks(host: String?) -> [TrustCheckApplication] {
        TrustCheckKind.allCases.map { kind in
            switch kind {
            case .chain, .dates:
                return TrustCheckApplication(
                    kind, .applied, "OpenSSL X509_verify_cert as trustd builds paths; no OpenSSL purpose")
            case .hostname:
                return host.map {
                    TrustCheckApplication(kind, .applied, "\($0) against the leaf's subjectAltName only")
                }
                    ?? TrustCheckApplication(kind, .skipped, "SSL policy without a host")
            case .serverAuthEKU, .keySizes, .sha1, .lifetimeCaps:  // EKU: the leaf, and sub-CAs that carry one
                return TrustCheckApplication(kind, .applied, "Apple's SSL policy, checked on the built path")
            case .certificateTransparency:
                return TrustCheckApplication(kind, .unchecked, "atscheck cannot see every SCT source")
            case .revocation: return TrustCheckApplication(kind, .skipped, "not part of the SSL policy")
            }
        }
    }
}
