import Foundation
import TLSModel

/// The stores a chain is judged against for one trust source: Apple's store of each OS release (the default), or one
/// store (this machine's, a PEM bundle, none), each with the `--ca-file` anchors; and, for Apple's source, a wider
/// store that only names the root of a chain no release trusts (every Apple root, the removed ones, this machine's).
package final class TrustStoreSet: @unchecked Sendable {  // immutable after init
    /// One store of the set and what it stands for.
    package struct Member {
        /// The store.
        package var store: TrustStore
        var label: String
        var iOS: String?
        var overTheAir: Bool
        /// SHA-256s (upper-case hex) of the member's system roots; nil for this machine's store.
        var roots: Set<String>?
    }

    let source: String
    let label: String
    /// The stores, oldest release first: the last is the newest (what a missing issuer is fetched by).
    package let members: [Member]
    let apple: AppleTrustData?
    let diagnostic: TrustStore?
    let customAnchors: [X509Certificate]

    /// SHA-256s (upper-case hex) of Apple's own anchors among the roots (no CT required for chains to them).
    let appleAnchors: Set<String>

    /// Reads the CA files and builds each store of `source`.
    /// - Throws: ``ProbeFailure`` when a CA file or the trust data cannot be read.
    /// > Warning: Reads files and parses hundreds of roots for Apple's source: build once per run.
    package init(source: TrustStoreSource, caFiles: [String], useSystemStore: Bool) throws {
        let anchors = try caFiles.flatMap { try X509Certificate.loadPEMFile($0) }
        customAnchors = anchors
        let effective = useSystemStore ? source : .none
        guard case .apple(let data) = effective else {
            let single = try Self.single(effective, anchors: anchors)
            self.source = single.kind
            label = single.label
            members = [
                Member(store: single.store, label: single.label, iOS: nil, overTheAir: false, roots: single.roots)
            ]
            apple = nil
            diagnostic = nil
            appleAnchors = []
            return
        }
        guard !data.snapshots.isEmpty else { throw ProbeFailure(.local, "the Apple trust data holds no store") }
        self.source = "apple"
        var parsed: [String: X509Certificate] = [:]
        for root in data.roots + data.removedRoots {
            parsed[root.sha256] = try X509Certificate(der: [UInt8](root.der))
        }
        members = try data.snapshots.map { snapshot in
            Member(
                store: try TrustStore(
                    systemRoots: snapshot.roots.compactMap { parsed[$0] }, customAnchors: anchors, hostDefaults: false),
                label: snapshot.label, iOS: snapshot.iOS, overTheAir: snapshot.overTheAir, roots: Set(snapshot.roots))
        }
        let first = data.snapshots[0].iOS
        let last = data.snapshots[data.snapshots.count - 1]
        label =
            "Apple iOS \(first)–\(last.iOS) (\(data.snapshots.count) stores; newest \(last.version), \(last.tag))"
        apple = data
        appleAnchors = Set(data.roots.filter { $0.appleAnchor == true }.map(\.sha256))
        diagnostic = try TrustStore(systemRoots: Array(parsed.values), customAnchors: anchors, hostDefaults: true)
    }

    /// One store for `source` with the anchors: this machine's, a PEM bundle's roots, none, or the newest of
    /// Apple's; its kind (`host`, `pem`, `none`, `apple`), label and system roots (nil for this machine's).
    private static func single(_ source: TrustStoreSource, anchors: [X509Certificate]) throws -> (
        store: TrustStore, kind: String, label: String, roots: Set<String>?
    ) {
        switch source {
        case .none:
            return (
                try TrustStore(systemRoots: [], customAnchors: anchors, hostDefaults: false), "none",
                "no system roots (only --ca-file anchors)", []
            )
        case .host:
            return (
                try TrustStore(systemRoots: [], customAnchors: anchors, hostDefaults: true), "host",
                "host (this machine's OpenSSL trust store, not Apple's)", nil
            )
        case .pemBundle(let path):
            let roots = try X509Certificate.loadPEMFile(path)
            return (
                try TrustStore(systemRoots: roots, customAnchors: anchors, hostDefaults: false), "pem",
                "\(path) (standing in for Apple's system roots)", Set(roots.map(\.sha256Hex))
            )
        case .apple(let data):
            let newest = Set(data.snapshots.last?.roots ?? [])
            let roots = try data.roots.filter { newest.contains($0.sha256) }.map {
                try X509Certificate(der: [UInt8]($0.der))
            }
            return (
                try TrustStore(systemRoots: roots, customAnchors: anchors, hostDefaults: false), "apple",
                data.snapshots.last?.label ?? "Apple", newest
            )
        }
    }

    /// The store of the newest release only (or the one store of another source), with the CA files: what pin
    /// path building matches pins against.
    static func newestStore(source: TrustStoreSource, caFiles: [String], useSystemStore: Bool) throws -> TrustStore {
        let anchors = try caFiles.flatMap { try X509Certificate.loadPEMFile($0) }
        return try single(useSystemStore ? source : .none, anchors: anchors).store
    }

    /// The chain against each member (the results in member order; the newest member's is the report's
    /// `verifiedChain`).
    func evaluate(_ chain: [X509Certificate], now: Date) -> (TrustEvaluation, results: [ChainVerifier.Result]) {
        // The newest store first: a chain it anchors at a `--ca-file` root is anchored there in every store (each
        // holds the same CA files), so the others need no verification of their own.
        let newest = ChainVerifier(trust: members[members.count - 1].store, now: now).verify(chain)
        var results: [ChainVerifier.Result]
        if newest.trusted, newest.anchor == .custom {
            results = Array(repeating: newest, count: members.count)
        } else {
            results = members.dropLast().map { ChainVerifier(trust: $0.store, now: now).verify(chain) } + [newest]
        }
        // The root an untrusted chain would end at, found once in the wider store.
        var elsewhere: ChainVerifier.Result?
        if let diagnostic, results.contains(where: { !$0.trusted }) {
            let found = ChainVerifier(trust: diagnostic, now: now).verify(chain)
            if found.trusted { elsewhere = found }
        }
        var outcomes: [StoreOutcome] = []
        for (index, (member, result)) in zip(members, results).enumerated() {
            var outcome = StoreOutcome(
                store: member.label, iOS: member.iOS, overTheAir: member.overTheAir, trusted: result.trusted,
                verifyError: result.errorText, verifyErrorCode: result.trusted ? 0 : result.errorCode,
                anchor: result.anchor, path: result.path.map { Hex.string(Digest.sha256($0.der)) })
            if !result.trusted, let elsewhere, let root = elsewhere.path.last {
                outcome.untrustedRoot = diagnose(root: root, memberIndex: index)
            }
            outcomes.append(outcome)
        }
        let evaluation = TrustEvaluation(source: source, label: label, stores: outcomes)
        return (evaluation, results)
    }

    /// Why the root `sha256` does not anchor the chain in member `index`'s store.
    private func diagnose(root: X509Certificate, memberIndex index: Int) -> UntrustedRoot? {
        guard let apple else { return nil }
        let sha256 = root.sha256Hex
        let name =
            apple.root(sha256: sha256)?.name
            ?? {
                let facts = root.facts()
                return facts.commonName ?? facts.subject
            }()
        if apple.removedRoots.contains(where: { $0.sha256 == sha256 }) {
            return UntrustedRoot(status: .removedByApple, name: name, sha256: sha256)
        }
        if let later = members[(index + 1)...].first(where: { $0.roots?.contains(sha256) == true }) {
            return UntrustedRoot(status: .addedLater, name: name, sha256: sha256, iOS: later.iOS)
        }
        if let earlier = members[..<index].last(where: { $0.roots?.contains(sha256) == true }) {
            return UntrustedRoot(status: .droppedEarlier, name: name, sha256: sha256, iOS: earlier.iOS)
        }
        if customAnchors.contains(where: { $0.sha256Hex == sha256 }) { return nil }
        if members[index].roots?.contains(sha256) == true { return nil }  // a chain error, not the root
        return UntrustedRoot(status: .hostOnly, name: name, sha256: sha256)
    }
}

extension X509Certificate {
    /// SHA-256 of the DER, upper-case hex (Apple's naming of roots).
    package var sha256Hex: String { Hex.string(Digest.sha256(der), uppercase: true) }
}
