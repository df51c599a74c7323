internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// The anchors a path is built to (docs/pinning-rules.md §8, `BUILD(anchors, policy)`).
package enum PathAnchorSet: Sendable, Equatable {
    /// The system store (when the builder uses it) plus the `--ca-file` roots.
    case system
    /// Only these DER certificates, anchors-only, with `X509_V_FLAG_PARTIAL_CHAIN` so that a pinned intermediate
    /// or leaf can end the path (`SecTrustSetAnchorCertificates`).
    case only([Data])
}

/// What OpenSSL built for a served chain under one anchor set.
package struct BuiltPath: Sendable, Equatable {
    /// Whether `X509_verify_cert` succeeded.
    package var ok: Bool
    /// The path OpenSSL built, leaf first, anchor last (on failure, as far as it got; at least the leaf).
    package var path: [CertificateFacts]
    /// OpenSSL's verify error text (`certificate has expired`, …); nil when ok.
    package var error: String?
    /// OpenSSL's `X509_V_ERR_*` code, 0 when ok.
    package var errorCode: Int
    /// Which kind of anchor ended the path: `system`, `custom` (a `--ca-file` root or, for
    /// ``PathAnchorSet/only(_:)``, a given anchor), or `none` when the build failed.
    package var anchor: AnchorKind

    /// A result.
    package init(ok: Bool, path: [CertificateFacts], error: String?, errorCode: Int, anchor: AnchorKind) {
        self.ok = ok
        self.path = path
        self.error = error
        self.errorCode = errorCode
        self.anchor = anchor
    }
}

/// Builds verified paths for one served chain as trustd does (``ChainVerifier``: OpenSSL's `X509_verify_cert` with
/// partial chains, alternative paths and trustd's structural checks): the leaf, with every other served certificate
/// as `untrusted`, to the chosen anchors, at an injected time. No OpenSSL purpose is set: its `sslserver` purpose
/// checks CA certificates and the anchor (refusing, say, a root whose critical EKU is anyExtendedKeyUsage), where
/// Apple checks serverAuth on the leaf and only an EKU-bearing sub-CA (the SSL policy's checks, above TLSProbe). The
/// path it returns is the one iOS would match pins against: a store root the server did not send is on it,
/// unrelated extra certificates the server sent are not.
///
/// > Warning: ``init(served:caFiles:useSystemStore:now:)`` reads the `--ca-file` files and sets up the system
/// > store's lookup: it blocks on file I/O. Not `Sendable`: use one builder from one thread.
package final class ServedChainPathBuilder {
    private let served: [X509Certificate]
    /// Issuers fetched from caIssuers URLs during the scan: used only where trustd may use the network.
    private let fetched: [X509Certificate]
    private let system: TrustStore
    /// The evaluation time.
    package let now: Date

    /// A builder for a served chain.
    /// - Parameters:
    ///   - served: The chain the server sent, leaf first, DER.
    ///   - caFiles: PEM files of extra anchors (user- or MDM-installed roots in Apple's terms).
    ///   - useSystemStore: Whether system roots count at all (tests turn it off).
    ///   - source: Whose system roots: the newest of Apple's stores, this machine's, a PEM bundle.
    ///   - now: The time to verify at.
    ///   - fetched: Issuers the scan fetched from the chain's caIssuers URLs (``IssuerFetch``), which
    ///     ``build(anchors:network:)`` adds to the served chain when the policy lets trustd use the network.
    /// - Throws: ``ProbeFailure`` (`.local`) when a served certificate or a CA file cannot be read.
    package init(
        served: [Data], caFiles: [String], useSystemStore: Bool = true, source: TrustStoreSource = .host,
        now: Date = Date(), fetched: [Data] = []
    ) throws {
        OpenSSLRuntime.prepare()
        do {
            self.served = try served.map { try X509Certificate(der: [UInt8]($0)) }
            self.fetched = try fetched.map { try X509Certificate(der: [UInt8]($0)) }
        } catch {
            throw ProbeFailure(.local, "a served certificate does not parse: \(error)")
        }
        do {
            self.system = try TrustStoreSet.newestStore(
                source: source, caFiles: caFiles, useSystemStore: useSystemStore)
        } catch let error
            as ProbeFailure
        {
            throw error
        } catch {
            throw ProbeFailure(.local, "cannot build the trust store: \(error)")
        }
        self.now = now
    }

    /// Builds and verifies the path of the served chain.
    /// - Parameters:
    ///   - anchors: The system anchors, or only the given certificates (any of them may end the path).
    ///   - network: Whether the evaluation may use the network, so that the issuers the scan fetched count: the SSL
    ///     policy may (trustd's CA issuer source); BasicX509 may not (`SecPolicyCreateBasicX509` sets
    ///     `kSecPolicyCheckNoNetworkAccess`, which removes that source: `SecPathBuilderSetCanAccessNetwork`).
    /// - Returns: Whether it verifies, the path, and OpenSSL's (or trustd's) error.
    package func build(anchors: PathAnchorSet, network: Bool = false) -> BuiltPath {
        guard let leaf = served.first else {
            return BuiltPath(ok: false, path: [], error: "the server sent no certificate", errorCode: -1, anchor: .none)
        }
        let store: TrustStore
        switch anchors {
        case .system:
            store = system
        case .only(let ders):
            let parsed = ders.compactMap { try? X509Certificate(der: [UInt8]($0)) }
            guard let only = try? TrustStore(onlyAnchors: parsed) else {
                return BuiltPath(
                    ok: false, path: [leaf.facts()], error: "cannot build the anchor store", errorCode: -1,
                    anchor: .none)
            }
            store = only
        }
        let result = ChainVerifier(trust: store, now: now).verify(network ? served + fetched : served)
        // Anchors-only: the store's anchors are all custom, so the verifier already calls the anchor the app's.
        let path = result.path.isEmpty ? [leaf] : result.path
        return BuiltPath(
            ok: result.trusted, path: path.map { $0.facts() }, error: result.errorText,
            errorCode: result.trusted ? 0 : result.errorCode, anchor: result.anchor)
    }
}
