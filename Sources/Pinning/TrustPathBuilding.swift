import Foundation
import TLSModel

/// The trust anchors a path is built to (docs/pinning-rules.md §8, `BUILD(anchors, policy)`).
package enum AnchorChoice: Sendable, Equatable {
    /// The system store plus the user's `--ca-file` roots: the device's trusted roots.
    case system
    /// Only these certificates, as `SecTrustSetAnchorCertificates` sets them (anchors-only); the builder
    /// must allow a non-self-signed anchor (OpenSSL `X509_V_FLAG_PARTIAL_CHAIN`), so a pinned intermediate or
    /// leaf can end the path.
    case pinned([CertificateFacts])
}

/// The policy a path is evaluated under (docs/pinning-rules.md §0, §8).
package enum TrustPolicyChoice: Sendable, Equatable, Hashable {
    /// Apple's SSL server policy: the host against the SAN only (none when nil), serverAuth, and Apple's
    /// extras — key sizes, no SHA-1, lifetime caps — applied by the builder.
    case ssl(host: String?)
    /// `SecPolicyCreateBasicX509`: dates, signatures and constraints only.
    case basic
}

/// What a path builder made of the served chain under one anchor set and policy.
package struct TrustPathResult: Sendable, Equatable {
    /// Whether the path verifies under the policy.
    package var ok: Bool
    /// The path, leaf first, anchor last: the path iOS would build (it may end at a store root the server
    /// did not send, and leaves out unrelated certificates the server sent). On failure, the best-effort path
    /// (at least the leaf when the builder could read it).
    package var path: [CertificateFacts]
    /// Why it failed (`certificate has expired`, `hostname mismatch`, …); nil when ok.
    package var error: String?
    /// The checks the builder ran or skipped, as it reports them.
    package var checks: [TrustCheckApplication]

    /// A result.
    /// - Parameters:
    ///   - ok: Whether the path verifies.
    ///   - path: Leaf first, anchor last.
    ///   - error: Why it failed.
    ///   - checks: What the builder ran.
    package init(ok: Bool, path: [CertificateFacts], error: String? = nil, checks: [TrustCheckApplication] = []) {
        self.ok = ok
        self.path = path
        self.error = error
        self.checks = checks
    }
}

/// Builds and verifies the path for one served chain (the chain and the evaluation time are the
/// implementation's state): docs/pinning-rules.md §8's `BUILD(anchors, policy)`. The OpenSSL implementation lives in
/// TLSProbe; tests use a fake whose answers come from the tables of docs/pinning-rules.md.
package protocol TrustPathBuilding {
    /// Builds the path of the served chain to `anchors` and verifies it under `policy`.
    /// - Parameters:
    ///   - anchors: The system anchors, or only the pinned certificates.
    ///   - policy: The SSL policy (with or without a host) or BasicX509.
    /// - Returns: Whether it verifies, the path, and why not.
    func build(anchors: AnchorChoice, policy: TrustPolicyChoice) -> TrustPathResult
}

/// The connection being judged: the host the app asks for, the chain the server sent and the evaluation time.
package struct PinConnection: Sendable, Equatable {
    /// The host the app connects to (SNI, hostname checks, policy lookup).
    package var host: String
    /// The chain as the server sent it, leaf first.
    package var served: [CertificateFacts]
    /// The evaluation time (expiry of TrustKit policies and of pinned leaves).
    package var now: Date
    /// Warn when the only matching pin is a leaf that expires within this many days.
    package var warnDays: Int

    /// A connection.
    /// - Parameters:
    ///   - host: The host the app connects to.
    ///   - served: The served chain, leaf first.
    ///   - now: The evaluation time.
    ///   - warnDays: The leaf-expiry warning window (30 days by default).
    package init(host: String, served: [CertificateFacts], now: Date, warnDays: Int = 30) {
        self.host = host
        self.served = served
        self.now = now
        self.warnDays = warnDays
    }
}
