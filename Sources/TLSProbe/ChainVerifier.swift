internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// Verifies a chain as sent against the system trust store plus extra anchors, the way a
/// client builds a path: it reports the built path (which may end at a root the server did not
/// send), OpenSSL's verify error, and which kind of anchor the path ended at.
///
/// OpenSSL checks signatures, validity dates and CA constraints only: no purpose, key-size or
/// hostname policy is set, because Apple's stricter rules are judged by `ATSPolicy` from the facts.
struct ChainVerifier {
    /// The system store and the `--ca-file` anchors, shared across endpoints.
    var trust: TrustStore
    /// The time to verify at.
    var now: Date

    struct Result {
        var trusted: Bool
        var errorCode: Int
        var errorText: String?
        var path: [X509Certificate]
        var anchor: AnchorKind
    }

    func verify(_ chain: [X509Certificate]) -> Result {
        guard let leaf = chain.first else {
            return Result(trusted: false, errorCode: -1, errorText: "no certificate", path: [], anchor: .none)
        }
        OpenSSLErrorQueue.clear()
        let store = trust.store
        guard let untrusted = atsc_sk_X509_new_null() else {
            return Result(trusted: false, errorCode: -1, errorText: "out of memory", path: [], anchor: .none)
        }
        defer { atsc_sk_X509_free(untrusted) }  // borrowed entries: free the stack only
        for cert in chain.dropFirst() { _ = atsc_sk_X509_push(untrusted, cert.pointer) }

        guard let context = X509_STORE_CTX_new() else {
            return Result(
                trusted: false, errorCode: -1, errorText: "X509_STORE_CTX_new failed", path: [], anchor: .none)
        }
        defer { X509_STORE_CTX_free(context) }
        guard X509_STORE_CTX_init(context, store, leaf.pointer, untrusted) == 1 else {
            return Result(
                trusted: false, errorCode: -1, errorText: OpenSSLError("X509_STORE_CTX_init").description,
                path: [], anchor: .none)
        }
        X509_VERIFY_PARAM_set_time(X509_STORE_CTX_get0_param(context), time_t(now.timeIntervalSince1970))
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
        var anchor = AnchorKind.none
        if ok, let last = path.last {
            anchor = trust.customAnchors.contains(where: { $0.der == last.der }) ? .custom : .system
        }
        let text = ok ? nil : String(cString: X509_verify_cert_error_string(Int(code)))
        return Result(trusted: ok, errorCode: ok ? 0 : code, errorText: text, path: path, anchor: anchor)
    }
}
