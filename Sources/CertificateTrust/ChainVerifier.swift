internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// Verifies a chain as sent against the system trust store plus extra anchors, the way trustd builds a path: it
/// reports the built path (which may end at a root the server did not send), OpenSSL's verify error, and which
/// kind of anchor the path ended at.
///
/// Two choices follow trustd rather than OpenSSL's defaults (docs/rules.md, "How the path is built"):
/// - **Any certificate in the store is an anchor**, self-signed or not (`X509_V_FLAG_PARTIAL_CHAIN`): trustd marks a
///   path anchored as soon as a certificate on it is found in an anchor source (`SecPathBuilderIsAnchor` in
///   `SecTrustServer.c`, for the leaf and every parent alike).
/// - **Alternative paths are tried** when the first fails: trustd keeps every candidate path to an anchor and
///   evaluates them in turn; OpenSSL builds one. When OpenSSL's path fails, every other path from the leaf through
///   the served certificates to an anchor (at most ``maximumCandidates``, ``maximumDepth`` deep) is verified alone,
///   and the first that verifies is the result.
///
/// OpenSSL checks signatures, validity dates, CA constraints and name constraints only: no purpose, key-size or
/// hostname policy is set, because Apple's stricter rules (and its EKU rules, which are not OpenSSL's purpose
/// checks) are judged by `ATSPolicy` from the facts.
struct ChainVerifier {
    /// The system store and the `--ca-file` anchors, shared across endpoints.
    var trust: TrustStore
    /// The time to verify at.
    var now: Date

    /// The most alternative paths tried after OpenSSL's own fails.
    static let maximumCandidates = 16
    /// The longest path considered, anchor included.
    static let maximumDepth = 8
    /// The most partial paths extended while looking for candidates: a bundle of many certificates with one subject
    /// (x509-limbo's pathological chains) has exponentially many paths, and the search must stay small.
    static let maximumExpansions = 256

    struct Result {
        var trusted: Bool
        var errorCode: Int
        var errorText: String?
        var path: [X509Certificate]
        var anchor: AnchorKind
        /// How many paths were verified: 1 when OpenSSL's own path was the answer.
        var pathsTried = 1
    }

    func verify(_ chain: [X509Certificate]) -> Result {
        guard let leaf = chain.first else {
            return Result(trusted: false, errorCode: -1, errorText: "no certificate", path: [], anchor: .none)
        }
        // A leaf that is itself an anchor is a path of its own, and trustd tries it first (SecPathBuilderProcessLeaf):
        // nothing the server sent after it is checked.
        if isAnchor(leaf), let only = try? TrustStore(onlyAnchors: [leaf]) {
            var alone = verifyOnce(leaf: leaf, untrusted: [], store: only.store)
            if alone.trusted {
                alone.anchor = trust.customAnchors.contains(where: { $0.der == leaf.der }) ? .custom : .system
                return alone
            }
        }
        var first = verifyOnce(leaf: leaf, untrusted: Array(chain.dropFirst()), store: trust.store)
        // Only the certificates between the leaf and the end need the store lookup: the end is the anchor already.
        if first.trusted, let end = first.path.dropFirst().dropLast().firstIndex(where: isAnchor) {
            // OpenSSL may chain on past a certificate the store holds; trustd's path ends at the first anchor.
            first.path = Array(first.path[...end])
            first.anchor = trust.customAnchors.contains(where: { $0.der == first.path[end].der }) ? .custom : .system
        }
        guard !first.trusted else { return first }
        let candidates = candidatePaths(chain)
        var tried = 1
        for candidate in candidates where candidate.map(\.der) != first.path.map(\.der) {
            guard let anchor = candidate.last, let only = try? TrustStore(onlyAnchors: [anchor]) else { continue }
            tried += 1
            var result = verifyOnce(leaf: leaf, untrusted: Array(candidate.dropFirst().dropLast()), store: only.store)
            if result.trusted {
                result.anchor = trust.customAnchors.contains(where: { $0.der == anchor.der }) ? .custom : .system
                result.pathsTried = tried
                return result
            }
        }
        first.pathsTried = tried
        return first
    }

    /// Whether the store holds `certificate` itself (not just one with its subject).
    func isAnchor(_ certificate: X509Certificate) -> Bool {
        guard let lookup = X509_STORE_CTX_new() else { return false }
        defer {
            X509_STORE_CTX_free(lookup)
            OpenSSLErrorQueue.clear()
        }
        guard X509_STORE_CTX_init(lookup, trust.store, certificate.pointer, nil) == 1,
            let found = X509_STORE_CTX_get1_certs(lookup, X509_get_subject_name(certificate.pointer))
        else { return false }
        defer { atsc_sk_X509_pop_free(found) }
        for i in 0..<atsc_sk_X509_num(found) {
            if let candidate = atsc_sk_X509_value(found, i), X509_cmp(candidate, certificate.pointer) == 0 {
                return true
            }
        }
        return false
    }

    /// One verification of `leaf` with `untrusted` to the anchors of `store`. trustd counts a certificate valid
    /// through the second of its notAfter (`SecCertificateIsValid`: `verifyTime <= notAfter`); OpenSSL calls it expired
    /// at that second. A chain OpenSSL finds expired at a whole second is verified again a second earlier.
    private func verifyOnce(leaf: X509Certificate, untrusted certificates: [X509Certificate], store: OpaquePointer)
        -> Result
    {
        let first = verifyOnce(leaf: leaf, untrusted: certificates, store: store, at: now)
        guard first.errorCode == Int(X509_V_ERR_CERT_HAS_EXPIRED),
            now.timeIntervalSince1970.rounded(.down)
                == now.timeIntervalSince1970,
            first.path.contains(where: { $0.facts().notAfter == now })
        else { return first }
        let earlier = verifyOnce(leaf: leaf, untrusted: certificates, store: store, at: now.addingTimeInterval(-1))
        return earlier.trusted ? earlier : first
    }

    private func verifyOnce(
        leaf: X509Certificate, untrusted certificates: [X509Certificate], store: OpaquePointer, at now: Date
    ) -> Result {
        OpenSSLErrorQueue.clear()
        guard let untrusted = atsc_sk_X509_new_null() else {
            return Result(trusted: false, errorCode: -1, errorText: "out of memory", path: [], anchor: .none)
        }
        defer { atsc_sk_X509_free(untrusted) }  // borrowed entries: free the stack only
        for cert in certificates { _ = atsc_sk_X509_push(untrusted, cert.pointer) }

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
        let param = X509_STORE_CTX_get0_param(context)
        X509_VERIFY_PARAM_set_time(param, time_t(now.timeIntervalSince1970))
        // trustd: a certificate found in an anchor source anchors the path whether or not it is self-signed; critical
        // extensions are judged by trustd's list of the ones it knows (TrustdPathChecks), not OpenSSL's.
        X509_VERIFY_PARAM_set_flags(param, UInt(X509_V_FLAG_PARTIAL_CHAIN | X509_V_FLAG_IGNORE_CRITICAL))
        var ok = X509_verify_cert(context) == 1
        var code = Int(X509_STORE_CTX_get_error(context))
        OpenSSLErrorQueue.clear()

        let path = Self.chain(of: context)
        var text = ok ? nil : String(cString: X509_verify_cert_error_string(Int(code)))
        if ok, let problem = TrustdPathChecks.problem(path) {
            ok = false
            code = problem.code
            text = problem.text
        }
        var anchor = AnchorKind.none
        if ok, let last = path.last {
            anchor = trust.customAnchors.contains(where: { $0.der == last.der }) ? .custom : .system
        }
        return Result(trusted: ok, errorCode: ok ? 0 : code, errorText: text, path: path, anchor: anchor)
    }

    /// The chain a verification built (as far as it got), leaf first.
    private static func chain(of context: OpaquePointer) -> [X509Certificate] {
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
        return path
    }

    /// Every path from the leaf through the served certificates to a certificate of the store, depth first, in the
    /// order issuers are found (the store's before served ones): at most ``maximumCandidates`` paths of at most
    /// ``maximumDepth`` certificates, no certificate twice on one path, ``maximumExpansions`` partial paths extended.
    func candidatePaths(_ chain: [X509Certificate]) -> [[X509Certificate]] {
        guard let leaf = chain.first, let lookup = X509_STORE_CTX_new() else { return [] }
        defer { X509_STORE_CTX_free(lookup) }
        guard X509_STORE_CTX_init(lookup, trust.store, leaf.pointer, nil) == 1 else { return [] }
        defer { OpenSSLErrorQueue.clear() }
        let served = Array(chain.dropFirst())

        /// The store's certificates that issued `subject` (by name, key identifiers and key usage).
        func anchors(issuing subject: X509Certificate) -> [X509Certificate] {
            guard let found = X509_STORE_CTX_get1_certs(lookup, X509_get_issuer_name(subject.pointer)) else {
                return []
            }
            defer { atsc_sk_X509_pop_free(found) }
            var result: [X509Certificate] = []
            for i in 0..<atsc_sk_X509_num(found) {
                guard let candidate = atsc_sk_X509_value(found, i),
                    X509_check_issued(candidate, subject.pointer) == X509_V_OK,
                    let owned = OwnedX509(retaining: candidate), let certificate = try? X509Certificate(owned: owned)
                else { continue }
                result.append(certificate)
            }
            return result
        }

        var paths: [[X509Certificate]] = []
        var stack: [[X509Certificate]] = [[leaf]]
        var anchorsOf: [[UInt8]: [X509Certificate]] = [:]
        var expansions = 0
        while let path = stack.popLast(), paths.count < Self.maximumCandidates, expansions < Self.maximumExpansions {
            guard let tip = path.last, path.count < Self.maximumDepth else { continue }
            expansions += 1
            let storeIssuers = anchorsOf[tip.der] ?? anchors(issuing: tip)
            anchorsOf[tip.der] = storeIssuers
            // A served certificate that the store also holds ends the path there (it is an anchor).
            for anchor in storeIssuers where !path.contains(where: { $0.der == anchor.der }) {
                paths.append(path + [anchor])
            }
            let next = served.filter { candidate in
                !path.contains(where: { $0.der == candidate.der })
                    && !storeIssuers.contains(where: { $0.der == candidate.der })
                    && X509_check_issued(candidate.pointer, tip.pointer) == X509_V_OK
            }
            stack.append(contentsOf: next.reversed().map { path + [$0] })
        }
        return Array(paths.prefix(Self.maximumCandidates))
    }
}
