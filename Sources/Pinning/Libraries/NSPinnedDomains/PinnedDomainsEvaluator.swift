import Foundation
import TLSModel

/// ATS `NSPinnedDomains` (iOS 14+; docs/pinning-rules.md §5, docs/apple-rules.md §3.3): pins that tighten the default
/// trust evaluation of every SSL policy created with the host.
package enum PinnedDomainsEvaluator {
    /// The identities that apply to a host, merged from every matching entry.
    package struct Applicable: Sendable, Equatable {
        /// The matching entry keys (the exact host, an including immediate parent).
        package var domains: [String]
        /// Leaf pins; nil when no matching entry has the key.
        package var leaf: Set<String>?
        /// CA pins; nil when no matching entry has the key.
        package var ca: Set<String>?
    }

    /// The entries that apply to a host: case-insensitive exact match after dropping one trailing dot, or an
    /// entry with `NSIncludesSubdomains` whose key is the host minus its first label (one level only).
    /// - Parameters:
    ///   - host: The host the app connects to.
    ///   - configuration: The `NSPinnedDomains` dictionary.
    /// - Returns: The merged identities, or nil when the host is not pinned.
    package static func applicable(host: String, in configuration: PinnedDomainsConfiguration) -> Applicable? {
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        let parent = name.split(separator: ".", maxSplits: 1).dropFirst().first.map(String.init)
        var result = Applicable(domains: [], leaf: nil, ca: nil)
        for key in configuration.domains.keys.sorted() {
            let entry = configuration.domains[key]!
            let k = key.lowercased()
            guard k == name || (entry.includesSubdomains && parent != nil && k == parent) else { continue }
            result.domains.append(key)
            if let leaf = entry.leafIdentities { result.leaf = (result.leaf ?? []).union(leaf) }
            if let ca = entry.caIdentities { result.ca = (result.ca ?? []).union(ca) }
        }
        return result.domains.isEmpty ? nil : result
    }

    /// Decides as ATS would for a host with the app's `NSPinnedDomains`.
    /// - Parameters:
    ///   - connection: Host, served chain, time.
    ///   - configuration: The parsed `NSPinnedDomains`.
    ///   - builder: Builds and verifies paths for the served chain.
    /// - Returns: The verdict with its steps.
    package static func evaluate(
        _ connection: PinConnection, configuration: PinnedDomainsConfiguration, builder: some TrustPathBuilding
    ) -> PinEvaluation {
        var trace = EvaluationTrace()
        let host = connection.host
        let applicable = applicable(host: host, in: configuration)
        var options = [PinOption("entries", applicable?.domains.joined(separator: ", ") ?? "none")]
        if let applicable {
            options.append(PinOption("leafIdentities", applicable.leaf.map { String($0.count) } ?? "absent"))
            options.append(PinOption("caIdentities", applicable.ca.map { String($0.count) } ?? "absent"))
            trace.step(
                "domain lookup", .passed,
                "\(host) matches \(applicable.domains.joined(separator: " and ")) (exact, or NSIncludesSubdomains on "
                    + "the immediate parent); identities merged"
            )
        } else {
            trace.step(
                "domain lookup", .skipped,
                "no entry for \(host) and no immediate parent with NSIncludesSubdomains: not pinned")
            trace.finding(RuleID.Pins.domainNotPinned, "NSPinnedDomains does not pin \(host)")
        }
        let policy = TrustPolicyChoice.ssl(host: host)
        let r = trace.consult(builder, anchors: .system, policy: policy)
        trace.step(
            "default trust", r.ok ? .passed : .failed,
            "\(Describe.policy(policy)) with system and --ca-file anchors: \(Describe.outcome(r))")
        var matches: [PinMatch] = []
        var failures: [String] = []
        let path = r.path
        if let applicable, r.ok {
            if let leafPins = applicable.leaf {
                if let leaf = path.first, leafPins.contains(leaf.spkiSHA256) {
                    matches.append(
                        PinMatch(
                            pin: leaf.spkiSHA256, kind: .spkiSHA256, position: 0, role: "leaf", subject: leaf.subject))
                    trace.step(
                        "leaf identities", .passed,
                        "the SPKI SHA-256 of the leaf \(path.first.map(Describe.certificate) ?? "") is pinned")
                } else {
                    let why =
                        leafPins.isEmpty
                        ? "NSPinnedLeafIdentities is empty: nothing can match"
                        : "the leaf's SPKI SHA-256 is not among the \(leafPins.count) leaf pins"
                    failures.append(why)
                    trace.step("leaf identities", .failed, why)
                }
            } else {
                trace.step("leaf identities", .skipped, "no NSPinnedLeafIdentities: no leaf check")
            }
            if let caPins = applicable.ca {
                let hits = path.indices.dropFirst().filter { caPins.contains(path[$0].spkiSHA256) }
                for i in hits {
                    matches.append(
                        PinMatch(
                            pin: path[i].spkiSHA256, kind: .spkiSHA256, position: i,
                            role: Describe.role(i, count: path.count), subject: path[i].subject))
                }
                if hits.isEmpty {
                    let why =
                        path.count < 2
                        ? "the path has no certificate above the leaf, so the CA check fails"
                        : caPins.isEmpty
                            ? "NSPinnedCAIdentities is empty: nothing can match"
                            : "no SPKI SHA-256 at positions 1…\(path.count - 1) (anchor included) is among the "
                                + "\(caPins.count) CA pins"
                    failures.append(why)
                    trace.step("CA identities", .failed, why)
                } else {
                    trace.step(
                        "CA identities", .passed,
                        "CA pin match at position \(hits.map(String.init).joined(separator: ", ")) (positions "
                            + "1…\(path.count - 1), anchor included)"
                    )
                }
            } else {
                trace.step("CA identities", .skipped, "no NSPinnedCAIdentities: no CA check")
            }
            let allPins = Array(applicable.leaf ?? []) + Array(applicable.ca ?? [])
            trace.findings += OutageWarnings.check(
                pins: allPins.sorted().map(PinIdentity.spki), path: path, connection: connection)
        } else if applicable != nil {
            trace.step("pins", .skipped, "default trust failed: the pins are not reached")
        }
        let accepted = r.ok && failures.isEmpty
        let result =
            !r.ok
            ? "default-trust-failed" : applicable == nil ? "not-pinned" : accepted ? "pins-matched" : "pin-mismatch"
        if !accepted {
            let why = !r.ok ? "default trust fails: \(r.error ?? "does not verify")" : failures.joined(separator: "; ")
            trace.finding(RuleID.Pins.rejected, "ATS rejects \(host) (NSURLError −1200): \(why)")
        }
        let compared = applicable != nil && r.ok
        return PinEvaluation(
            library: .nspinneddomains, host: host, options: options, verdict: accepted ? .accept : .reject,
            result: result,
            steps: trace.steps, path: Identity.entries(path, served: connection.served), matches: matches,
            pinMatched: compared ? failures.isEmpty : nil,
            noMatchReason: compared
                ? (failures.isEmpty ? nil : failures.joined(separator: "; "))
                : (applicable == nil ? "the host is not pinned" : "default trust failed, so no pin was compared"),
            trustChecks: trace.trustChecks(), findings: trace.findings, limitations: EvaluationTrace.limitations)
    }
}
