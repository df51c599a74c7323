internal import COpenSSL
import Foundation
internal import OpenSSLSupport

/// An owned `X509_STORE`: the roots that stand in for the OS's preinstalled ones (optionally) plus the `--ca-file`
/// anchors.
///
/// Built once per prober and trust source, then shared by every endpoint's verification: OpenSSL locks an
/// `X509_STORE` internally for lookups, and nothing adds to it after init.
package final class TrustStore: @unchecked Sendable {  // immutable after init; OpenSSL guards the store's lookups
    let store: OpaquePointer
    /// Certificates from `--ca-file`: user- or MDM-installed roots in Apple's terms.
    let customAnchors: [X509Certificate]

    /// A store holding only `anchors`, no system roots: the anchors-only set of `SecTrustSetAnchorCertificates`
    /// (pin path building, ``ServedChainPathBuilder``).
    convenience init(onlyAnchors anchors: [X509Certificate]) throws {
        try self.init(systemRoots: [], customAnchors: anchors, hostDefaults: false)
    }

    /// `systemRoots` (Apple's store of one release, a PEM bundle) and the custom anchors, and this machine's
    /// default paths when `hostDefaults`.
    init(systemRoots: [X509Certificate], customAnchors: [X509Certificate], hostDefaults: Bool) throws {
        OpenSSLErrorQueue.clear()
        guard let store = X509_STORE_new() else { throw OpenSSLError("X509_STORE_new") }
        self.store = store
        self.customAnchors = customAnchors
        if hostDefaults { X509_STORE_set_default_paths(store) }
        for root in systemRoots { X509_STORE_add_cert(store, root.pointer) }
        for anchor in customAnchors { X509_STORE_add_cert(store, anchor.pointer) }
        OpenSSLErrorQueue.clear()
    }

    deinit { X509_STORE_free(store) }
}
