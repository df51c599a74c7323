internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// An owned `X509_STORE`: the system trust store (optionally) plus the `--ca-file` anchors.
///
/// Built once per prober and set of CA files, then shared by every endpoint's verification:
/// OpenSSL locks an `X509_STORE` internally for lookups, and nothing adds to it after init.
final class TrustStore: @unchecked Sendable {  // immutable after init; OpenSSL guards the store's lookups
    let store: OpaquePointer
    /// Certificates from `--ca-file`: user- or MDM-installed roots in Apple's terms.
    let customAnchors: [X509Certificate]

    /// - Parameter systemBundle: a PEM file whose roots stand in for the system store (``TrustStoreSource/pemBundle(_:)``):
    ///   loaded instead of OpenSSL's default paths when `useSystemStore`, and its roots are system anchors.
    init(caFiles: [String], useSystemStore: Bool, systemBundle: String? = nil) throws {
        let anchors = try caFiles.flatMap { try X509Certificate.loadPEMFile($0) }
        let systemRoots = try useSystemStore ? systemBundle.map { try X509Certificate.loadPEMFile($0) } : nil
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else { throw OpenSSLError("X509_STORE_new") }
        self.store = store
        self.customAnchors = anchors
        if let systemRoots {
            for root in systemRoots { X509_STORE_add_cert(store, root.pointer) }
        } else if useSystemStore {
            X509_STORE_set_default_paths(store)
        }
        for anchor in anchors { X509_STORE_add_cert(store, anchor.pointer) }
        OpenSSLErrorQueue.clear()
    }

    /// A store holding only `anchors`, no system roots: the anchors-only set of `SecTrustSetAnchorCertificates`
    /// (pin path building, ``ServedChainPathBuilder``).
    init(onlyAnchors anchors: [X509Certificate]) throws {
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else { throw OpenSSLError("X509_STORE_new") }
        self.store = store
        self.customAnchors = anchors
        for anchor in anchors { X509_STORE_add_cert(store, anchor.pointer) }
        OpenSSLErrorQueue.clear()
    }

    deinit { X509_STORE_free(store) }
}

extension ProbeRequest {
    /// The PEM file that stands in for the system roots, when the trust source is one (`.pemBundle`).
    var systemPEMBundle: String? {
        if case .pemBundle(let path) = trustSource { return path }
        return nil
    }
}
