import TLSModel

/// Explains an `NSAppTransportSecurity` dictionary (`atscheck plist --explain`, issue 4): for every host
/// pattern and OS era, the effective policy for URLSession, WKWebView, AVFoundation media and UIWebView
/// (docs/apple-rules.md §4.1, the corrected matrix of §4.2, §4.3, §4.5).
///
/// Every cell comes from the engine's own resolution (``HostPolicy``), so the explanation and the verdicts
/// of `scan`/`audit` cannot drift apart. The keys that decided a cell are found by removing each key that
/// could matter and resolving again: a key is listed when its removal changes the policy.
package enum PolicyExplainer {
    /// An OS era: a label and the release whose rules stand for it.
    package struct Era: Sendable, Equatable {
        package var label: String
        package var os: AppleOSVersion

        package init(label: String, os: AppleOSVersion) {
            self.label = label
            self.os = os
        }
    }

    /// The changes of ``AppleOSEra/all`` that change a host's policy (the explainer's matrix): the fine-grained
    /// keys, IP literals under ATS, and the NIAP key when the dictionary uses one.
    static let hostPolicyChanges: [AppleOSEra.Change] = [.fineGrainedGlobalKeys, .ipLiteralsUnderATS]

    /// The eras in which the host-policy rules differ, from ``AppleOSEra/all``: 9 (only `NSAllowsArbitraryLoads`),
    /// 10–16 (the fine-grained keys, IP literals exempt), 17+ (IP literals under ATS), and 26.4+ when the
    /// dictionary uses a NIAP key.
    /// - Parameter configuration: the app's configuration.
    /// - Returns: the eras, oldest first.
    package static func eras(for configuration: ATSConfiguration) -> [Era] {
        let usesNIAP =
            configuration.niapPackage != nil
            || configuration.exceptionDomains.values.contains { $0.niapPackage != nil }
        let changes = hostPolicyChanges + (usesNIAP ? [.niapPackage] : [])
        let starts = ([AppleOSEra.judgedEras[0].version] + changes.map { AppleOSEra.introducing($0).version }).sorted()
        return starts.enumerated().map { index, start in
            let label: String
            if index + 1 < starts.count {
                let end = AppleOSEra.release(before: starts[index + 1])
                label = end == start ? AppleOSEra.label(start) : "\(AppleOSEra.label(start))–\(AppleOSEra.label(end))"
            } else {
                label = AppleOSEra.label(start) + "+"
            }
            return Era(label: label, os: start)
        }
    }

    /// Explains `configuration`.
    /// - Parameters:
    ///   - configuration: the parsed `NSAppTransportSecurity` dictionary (``ATSConfiguration/default`` when
    ///     the app has none).
    ///   - eras: the OS eras to explain (default: ``eras(for:)``).
    ///   - neverMatching: `NSExceptionDomains` keys that never match a host, with why (the linter's message):
    ///     listed as such, with no eras (hosts the key was meant for get the policy of any other host).
    /// - Returns: one ``HostPatternPolicy`` per host pattern, each with every era and client.
    package static func explain(
        _ configuration: ATSConfiguration, eras: [Era]? = nil, neverMatching: [String: String] = [:]
    ) -> PolicyExplanation {
        explain(configuration, eras: eras, neverMatching: neverMatching, work: nil)
    }

    /// ``explain(_:eras:neverMatching:)``, counting its work (the regression test of its linearity).
    static func explain(
        _ configuration: ATSConfiguration, eras: [Era]?, neverMatching: [String: String], work: ResolutionWork?
    ) -> PolicyExplanation {
        let eras = eras ?? Self.eras(for: configuration)
        let patterns = hostPatterns(configuration, neverMatching: Set(neverMatching.keys))
        // Built once: every IP pattern of every era and client is then found without a walk over the keys.
        let index = ExceptionIndex(configuration.exceptionDomains, work: work)
        let hosts = patterns.map { pattern in
            if pattern.kind == .unresolved {
                var unresolved = HostPatternPolicy(
                    pattern: pattern.pattern, kind: .unresolved, exampleHost: pattern.host, eras: [])
                let names = ATSPolicyEvaluator.settingNames(pattern.pattern).map { "--build-setting \($0)=VALUE" }
                unresolved.cannotBeJudged =
                    "the key refers to a build setting that is not given, so the host it names is not known; a host "
                    + "it could name is judged both ways by scan and audit (give \(names.joined(separator: " ")) or "
                    + "--xcconfig PATH)"
                return unresolved
            }
            if let why = neverMatching[pattern.pattern], pattern.kind == .exceptionDomain {
                return HostPatternPolicy(
                    pattern: pattern.pattern, kind: .neverMatches, exampleHost: pattern.host, eras: [],
                    neverMatches: why)
            }
            return HostPatternPolicy(
                pattern: pattern.pattern, kind: pattern.kind, exampleHost: pattern.host,
                eras: eras.map { era in
                    EraPolicy(
                        era: era.label, osVersion: era.os.description,
                        clients: ClientKind.appClients.map {
                            explain(
                                host: pattern.host, for: ATSClient(os: era.os, kind: $0), configuration: configuration,
                                index: index)
                        })
                })
        }
        return PolicyExplanation(hosts: hosts, notes: notes(configuration))
    }

    /// Parses and explains an `NSAppTransportSecurity` dictionary as `PropertyListSerialization` gives it.
    package static func explain(dictionary: [String: Any]) -> PolicyExplanation {
        explain(ATSConfiguration(dictionary: dictionary))
    }

    // MARK: - One cell

    /// The policy for one host, client and OS: the engine's primary reading, the keys that decided it,
    /// and the other reading of every conflict the resolution consulted when that reading differs.
    static func explain(
        host: String, for client: ATSClient, configuration c: ATSConfiguration, index: ExceptionIndex? = nil
    ) -> ClientPolicy {
        let (os, kind) = (client.os, client.kind)
        let readings = Readings.primary(for: os)
        var consulted: Set<ATSConflict> = []
        let policy = HostPolicy.resolve(
            host: host, configuration: c, for: client, readings: readings, consulted: &consulted, index: index)
        var conflicts: [ConflictingReading] = []
        for conflict in consulted.sorted() {
            let other = readings.flipped(conflict)
            var ignored: Set<ATSConflict> = []
            let alternative = HostPolicy.resolve(
                host: host, configuration: c, for: client, readings: other, consulted: &ignored, index: index,
                findConflicts: false)
            guard Effective(alternative) != Effective(policy) else { continue }
            conflicts.append(
                ConflictingReading(
                    conflict: conflict.rawValue, summary: conflict.summary, reading: other.name(of: conflict),
                    atsApplies: alternative.atsRequired, httpAllowed: alternative.httpAllowed,
                    minimumTLS: alternative.minimumTLS, forwardSecrecyRequired: alternative.requiresForwardSecrecy,
                    reason: alternative.explanation))
        }
        var reason = policy.explanation
        if let match = policy.exception, !match.builtIn, !match.entry.unresolvedValues.isEmpty {
            let written = match.entry.unresolvedValues.sorted { $0.key < $1.key }.map { "\($0.key) is \($0.value)" }
            reason +=
                "; \(written.joined(separator: ", ")), a build setting that is not given, so what it sets cannot be "
                + "judged"
        }
        if !conflicts.isEmpty {
            reason +=
                " (reading "
                + "\(conflicts.map { readings.name(of: ATSConflict(rawValue: $0.conflict)!) }.joined(separator: ", ")))"
        }
        let deciding = decidingKeys(
            host: host, for: client, configuration: c, readings: readings, policy: policy, index: index)
        var cell = ClientPolicy(
            client: kind, atsApplies: policy.atsRequired, httpAllowed: policy.httpAllowed,
            minimumTLS: policy.minimumTLS, forwardSecrecyRequired: policy.requiresForwardSecrecy, niap: policy.niap,
            decidedBy: deciding.map(\.path), reason: reason, conflicts: conflicts)
        cell.decidedByComponents = deciding.map(\.components)
        return cell
    }

    /// The parts of a ``HostPolicy`` a person acts on (not its wording or which entry matched).
    struct Effective: Equatable {
        var atsRequired, httpAllowed: Bool
        var minimumTLS: TLSVersion
        var suites: HostPolicy.SuitePolicy
        var keySizeCheck, hashCheck, niap: Bool

        init(_ p: HostPolicy) {
            (atsRequired, httpAllowed, minimumTLS, suites) = (p.atsRequired, p.httpAllowed, p.minimumTLS, p.suites)
            (keySizeCheck, hashCheck, niap) = (p.atsKeySizeCheck, p.atsHashCheck, p.niap)
        }
    }

    /// One "what if": the configuration with one key removed or one entry changed.
    private struct Variant {
        var path: String
        var components: [String]
        var configuration: ATSConfiguration
        var overlay: ExceptionOverlay?
    }

    /// The keys whose removal changes the policy, as `NSAppTransportSecurity.…` key paths and as keys.
    ///
    /// A global key's variant is a copy of the configuration with the flag cleared (the entries are shared, not
    /// copied); an entry's variants are overlays on the one entry, so each costs what one resolution costs.
    static func decidingKeys(
        host: String, for client: ATSClient, configuration c: ATSConfiguration, readings: Readings,
        policy: HostPolicy, index: ExceptionIndex? = nil
    ) -> [(path: String, components: [String])] {
        var variants: [Variant] = []
        func global(_ key: ATSKey, _ path: WritableKeyPath<ATSConfiguration, ATSConfiguration.Flag>) {
            // A host an entry governs ignores every global boolean (its policy is the entry's), so removing one
            // cannot change it: no resolution needed.
            guard c[keyPath: path].isPresent, policy.exception == nil else { return }
            var v = c
            v[keyPath: path] = .absent
            variants.append(
                Variant(path: ATSKeyPath.global(key), components: ATSKeyPath.components([key.name]), configuration: v))
        }
        global(.allowsArbitraryLoads, \.allowsArbitraryLoads)
        global(.allowsArbitraryLoadsForMedia, \.allowsArbitraryLoadsForMedia)
        global(.allowsArbitraryLoadsInWebContent, \.allowsArbitraryLoadsInWebContent)
        global(.allowsLocalNetworking, \.allowsLocalNetworking)
        if c.niapPackage != nil {
            var v = c
            v.niapPackage = nil
            let key = ATSKey.requiresNIAPTLSPackageVersion
            variants.append(
                Variant(path: ATSKeyPath.global(key), components: ATSKeyPath.components([key.name]), configuration: v))
        }
        if let match = policy.exception, !match.builtIn, let entry = c.exceptionDomains[match.key] {
            variants.append(
                Variant(
                    path: ATSKeyPath.exceptionDomain(match.key),
                    components: ATSKeyPath.exceptionDomainComponents(match.key), configuration: c,
                    overlay: ExceptionOverlay(key: match.key, entry: nil)))
            func field<T>(_ key: ATSKey, _ path: WritableKeyPath<ExceptionDomain, T>, _ value: T) {
                var changed = entry
                changed[keyPath: path] = value
                variants.append(
                    Variant(
                        path: ATSKeyPath.exceptionDomain(match.key, key.name),
                        components: ATSKeyPath.exceptionDomainComponents(match.key, key.name), configuration: c,
                        overlay: ExceptionOverlay(key: match.key, entry: changed)))
            }
            if entry.includesSubdomains { field(.includesSubdomains, \.includesSubdomains, false) }
            if entry.allowsInsecureHTTPLoads {
                field(.exceptionAllowsInsecureHTTPLoads, \.allowsInsecureHTTPLoads, false)
            }
            if entry.minimumTLSVersion != nil { field(.exceptionMinimumTLSVersion, \.minimumTLSVersion, nil) }
            if !entry.requiresForwardSecrecy { field(.exceptionRequiresForwardSecrecy, \.requiresForwardSecrecy, true) }
            if entry.niapPackage != nil { field(.exceptionRequiresNIAPTLSPackageVersion, \.niapPackage, nil) }
        }
        let current = Effective(policy)
        return variants.compactMap { variant in
            var ignored: Set<ATSConflict> = []
            let other = HostPolicy.resolve(
                host: host, configuration: variant.configuration, for: client, readings: readings, consulted: &ignored,
                index: index, overlay: variant.overlay, findConflicts: false)
            return Effective(other) != current ? (variant.path, variant.components) : nil
        }
    }

    // MARK: - Host patterns

    struct Pattern {
        var pattern: String
        var kind: HostPatternPolicy.Kind
        var host: String
    }

    /// Every `NSExceptionDomains` key (and its subdomains, one level and deeper, when it includes them), any
    /// other public host, `localhost`, `*.local` and an IP literal.
    /// - Parameter neverMatching: keys that never match a host: listed without their subdomains.
    static func hostPatterns(_ c: ATSConfiguration, neverMatching: Set<String> = []) -> [Pattern] {
        var patterns: [Pattern] = []
        for key in c.exceptionDomains.keys.sorted() {
            let entry = c.exceptionDomains[key]!
            if key.contains("/") {
                let host = CIDRRange(key).map { $0.network.description } ?? key
                patterns.append(Pattern(pattern: key, kind: .exceptionDomain, host: host))
                continue
            }
            patterns.append(Pattern(pattern: key, kind: .exceptionDomain, host: key))
            if entry.includesSubdomains && IPAddress(literal: key) == nil && !neverMatching.contains(key) {
                patterns.append(Pattern(pattern: "*.\(key)", kind: .subdomain, host: "sub.\(key)"))
                patterns.append(Pattern(pattern: "*.*.\(key) and deeper", kind: .subdomain, host: "deep.sub.\(key)"))
            }
        }
        for key in c.unresolvedExceptionDomains.keys.sorted() {
            patterns.append(Pattern(pattern: key, kind: .unresolved, host: key))
        }
        patterns.append(Pattern(pattern: "any other public host", kind: .otherPublicHost, host: otherPublicHost(c)))
        if c.exceptionDomains["localhost"] == nil {
            patterns.append(Pattern(pattern: "localhost", kind: .localName, host: "localhost"))
        }
        patterns.append(Pattern(pattern: "*.local", kind: .localName, host: "printer.local"))
        patterns.append(Pattern(pattern: "IP literal (e.g. 192.0.2.10)", kind: .ipLiteral, host: "192.0.2.10"))
        return patterns
    }

    /// The host that stands for "any other public host": a public name no entry (or built-in) covers.
    static func otherPublicHost(_ c: ATSConfiguration) -> String {
        func unlisted(_ host: String) -> Bool {
            SubdomainDepth.allCases.allSatisfy { c.exception(for: host, os: .newest, depth: $0) == nil }
        }
        return ["other-host.example", "other-host.atscheck-example", "x9.other-host.atscheck-example"]
            .first(where: unlisted) ?? "other-host.example"
    }

    static func notes(_ c: ATSConfiguration) -> [String] {
        var notes = [
            "built-in Apple exceptions (apple.com, setup.icloud.com, ls/gs/geo.apple.com, is.autonavi.com, "
                + "apple-mapkit.com) govern those hosts unless the app lists the same key (§4.3)",
            "with ATS off the minimum TLS version is the system default: historically TLS 1.0 (reportedly 1.2 for "
                + "apps linked on iOS 26, unverified)",
            "the iOS 17 IP-literal rule may apply only to apps linked against the iOS 17 SDK (unconfirmed); whether "
                + "loopback and link-local IPs count as local on iOS 17+ is unconfirmed",
            "ATS does not cover Network.framework, sockets or TLS stacks inside the app (§0 A2)",
        ]
        if c.allowsArbitraryLoadsInWebContent.isYes {
            notes.append(
                "HTML <video> in a WKWebView is loaded by the media stack: NSAllowsArbitraryLoadsInWebContent may "
                    + "not cover it (radar 28678048)"
            )
        }
        if !c.unresolvedExceptionDomains.isEmpty {
            notes.append(
                "NSExceptionDomains keys that refer to build settings not given ("
                    + c.unresolvedExceptionDomains.keys.sorted().joined(separator: ", ")
                    + ") may name any host without an entry of its own: those hosts are shown as if they named none"
            )
        }
        if c.allowsLocalNetworking.isPresent && c.allowsArbitraryLoads.isYes {
            notes.append(
                "NSAllowsLocalNetworking turns off NSAllowsArbitraryLoads on iOS 10+: loads that relied on it fail "
                    + "(radar 29553627)"
            )
        }
        return notes
    }
}

extension HostPolicy {
    /// Whether only forward-secret suites are offered on TLS 1.2 and earlier.
    var requiresForwardSecrecy: Bool {
        if niap { return true }
        if case .ats(forwardSecrecy: true) = suites { return true }
        return false
    }
}
