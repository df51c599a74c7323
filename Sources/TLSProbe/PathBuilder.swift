internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// The anchors a path is built to (pinning.md §8, `BUILD(anchors, policy)`).
public enum PathAnchorSet: Sendable, Equatable {
    /// The system store (when the builder uses it) plus the `--ca-file` roots.
    case system
    /// Only these DER certificates, anchors-only, with `X509_V_FLAG_PARTIAL_CHAIN` so that a pinned intermediate
    /// or leaf can end the path (`SecTrustSetAnchorCertificates`).
    case only([Data])
}

/// The OpenSSL purpose a build verifies under.
public enum PathPurpose: Sendable, Equatable {
    /// `X509_PURPOSE_SSL_SERVER`: the leaf's key usage and extended key usage must allow a TLS server (Apple's
    /// SSL policy; its stricter extras are checked above TLSProbe).
    case sslServer
    /// No purpose: signatures, constraints and dates only (Apple's BasicX509).
    case none
}

/// What OpenSSL built for a served chain under one anchor set and purpose.
public struct BuiltPath: Sendable, Equatable {
    /// Whether `X509_verify_cert` succeeded.
    public var ok: Bool
    /// The path OpenSSL built, leaf first, anchor last (on failure, as far as it got; at least the leaf).
    public var path: [CertificateFacts]
    /// OpenSSL's verify error text (`certificate has expired`, …); nil when ok.
    public var error: String?
    /// OpenSSL's `X509_V_ERR_*` code, 0 when ok.
    public var errorCode: Int
    /// Which kind of anchor ended the path: `system`, `custom` (a `--ca-file` root or, for
    /// ``PathAnchorSet/only(_:)``, a given anchor), or `none` when the build failed.
    public var anchor: AnchorKind

    /// A result.
    public init(ok: Bool, path: [CertificateFacts], error: String?, errorCode: Int, anchor: AnchorKind) {
        self.ok = ok
        self.path = path
        self.error = error
        self.errorCode = errorCode
        self.anchor = anchor
    }
}

/// Builds verified paths for one served chain with OpenSSL's `X509_verify_cert`: the leaf, with every other
/// served certificate as `untrusted`, to the chosen anchors, at an injected time. The path it returns is the
/// one iOS would match pins against: a store root the server did not send is on it, unrelated extra
/// certificates the server sent are not.
///
/// > Warning: ``init(served:caFiles:useSystemStore:now:)`` reads the `--ca-file` files and sets up the system
/// > store's lookup: it blocks on file I/O. Not `Sendable`: use one builder from one thread.
public final class ServedChainPathBuilder {
    private let served: [X509Certificate]
    private let system: TrustStore
    /// The evaluation time.
    public let now: Date

    /// A builder for a served chain.
    /// - Parameters:
    ///   - served: The chain the server sent, leaf first, DER.
    ///   - caFiles: PEM files of extra anchors (user- or MDM-installed roots in Apple's terms).
    ///   - useSystemStore: Whether system roots count at all (tests turn it off).
    ///   - source: Whose system roots: the newest of Apple's stores, this machine's, a PEM bundle.
    ///   - now: The time to verify at.
    /// - Throws: ``ProbeFailure`` (`.local`) when a served certificate or a CA file cannot be read.
    public init(
        served: [Data], caFiles: [String], useSystemStore: Bool = true, source: TrustStoreSource = .host,
        now: Date = Date()
    ) throws {
        OpenSSLRuntime.prepare()
        do {
            self.served = try served.map { try X509Certificate(der: [UInt8]($0)) }
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
    ///   - anchors: The system anchors, or only the given certificates (partial-chain anchors).
    ///   - purpose: SSL server or none.
    /// - Returns: Whether it verifies, the path, and OpenSSL's error.
    public func build(anchors: PathAnchorSet, purpose: PathPurpose) -> BuiltPath {
        guard let leaf = served.first else {
            return BuiltPath(ok: false, path: [], error: "the server sent no certificate", errorCode: -1, anchor: .none)
        }
        let store: TrustStore
        let partial: Bool
        switch anchors {
        case .system:
            store = system
            partial = false
        case .only(let ders):
            let parsed = ders.compactMap { try? X509Certificate(der: [UInt8]($0)) }
            guard let only = try? TrustStore(onlyAnchors: parsed) else {
                return BuiltPath(
                    ok: false, path: [leaf.facts()], error: "cannot build the anchor store", errorCode: -1,
                    anchor: .none)
            }
            store = only
            partial = true
        }
        return verify(leaf: leaf, store: store, partialChain: partial, purpose: purpose)
    }

    private func verify(leaf: X509Certificate, store: TrustStore, partialChain: Bool, purpose: PathPurpose) -> BuiltPath
    {
        func failure(_ text: String) -> BuiltPath {
            BuiltPath(ok: false, path: [leaf.facts()], error: text, errorCode: -1, anchor: .none)
        }
        OpenSSLErrorQueue.clear()
        guard let untrusted = atsc_sk_X509_new_null() else { return failure("out of memory") }
        defer { atsc_sk_X509_free(untrusted) }  // borrowed entries: free the stack only
        for cert in served.dropFirst() { _ = atsc_sk_X509_push(untrusted, cert.pointer) }
        guard let context = X509_STORE_CTX_new() else { return failure("X509_STORE_CTX_new failed") }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store.store, leaf.pointer, untrusted) == 1 else {
            return failure(OpenSSLError("X509_STORE_CTX_init").description)
        }
        let param = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(param, time_t(now.timeIntervalSince1970))
        // Anchors-only with non-self-signed anchors: OpenSSL refuses a pinned intermediate or leaf as the end
        // of a path unless partial chains are allowed (pinning.md §0 "Anchors").
        if partialChain { X509_VERIFY_PARAM_set_flags(param, UInt(X509_V_FLAG_PARTIAL_CHAIN)) }
        if purpose == .sslServer { X509_STORE_CTX_set_purpose(context, X509_PURPOSE_SSL_SERVER) }
        let ok = X509_verify_cert(context) == 1
        let code = Int(X509_STORE_CTX_get_error(context))
        OpenSSLErrorQueue.clear()

        var path: [X509Certificate] = []
        if let built = X509_STORE_CTX_get1_chain(context) {
            for i in 0..<atsc_sk_X509_num(built) {
                if let owned = OwnedX509(retaining: atsc_sk_X509_value(built, i)),
                    let certificate = try? X509Certificate(owned: owned)
                {
                    path.append(certificate)
                }
            }
            atsc_sk_X509_pop_free(built)
        }
        if path.isEmpty { path = [leaf] }
        // OpenSSL may chain past a pinned certificate it already trusts (a pinned leaf, then the served
        // intermediate); iOS ends the path at the first anchor.
        if ok && partialChain,
            let end = path.firstIndex(where: { c in store.customAnchors.contains { $0.der == c.der } })
        {
            path = Array(path[...end])
        }
        var anchor = AnchorKind.none
        if ok, let last = path.last {
            anchor = partialChain || store.customAnchors.contains(where: { $0.der == last.der }) ? .custom : .system
        }
        let text = ok ? nil : Self.verifyErrorText(code)
        return BuiltPath(ok: ok, path: path.map { $0.facts() }, error: text, errorCode: ok ? 0 : code, anchor: anchor)
    }

    /// OpenSSL's text for a verify error code.
    static func verifyErrorText(_ code: Int) -> String {
        guard let text = X509_verify_cert_error_string(code) else { return "verify error \(code)" }
        return String(decoding: UnsafeRawBufferPointer(start: text, count: strlen(text)), as: UTF8.self)
    }
}
