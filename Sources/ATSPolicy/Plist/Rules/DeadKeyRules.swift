import TLSModel

extension RuleID.Plist {
    /// `plist.dead.arbitrary-loads-ignored` (its entry is below).
    package static let deadArbitraryLoadsIgnored: RuleID = "plist.dead.arbitrary-loads-ignored"
    /// `plist.dead.global-keys-shadowed` (its entry is below).
    package static let deadGlobalKeysShadowed: RuleID = "plist.dead.global-keys-shadowed"
}

/// Keys that do nothing (docs/apple-rules.md §4.1, §4.3):
/// - on iOS 10+ `NSAllowsArbitraryLoads` is ignored when `NSAllowsArbitraryLoadsForMedia`,
///   `NSAllowsArbitraryLoadsInWebContent` or `NSAllowsLocalNetworking` is present, **whatever its value**
///   (a `<false/>` counts as present);
/// - global keys never reach a host that has its own `NSExceptionDomains` entry (unless the entry
///   itself allows insecure HTTP loads, which turns ATS off for it).
/// (`NSIncludesSubdomains` on an IP entry is reported by ``DomainSubdomainsOnIPRule``.)
struct DeadKeyRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.deadArbitraryLoadsIgnored, .plist, .error,
                title:
                    "NSAllowsArbitraryLoads ignored on iOS 10+ because a web, media or local-networking key is present.",
                help: """
                    From iOS 10 / macOS 10.12, when `NSAllowsArbitraryLoadsInWebContent`, \
                    `NSAllowsArbitraryLoadsForMedia` or `NSAllowsLocalNetworking` is present (whatever its value), \
                    `NSAllowsArbitraryLoads` is ignored. That is Apple's recommended pairing for apps that still \
                    support iOS 9 (then a note); otherwise an error: remove the key, or add per-domain exceptions.
                    """,
                appleKey: "NSAllowsArbitraryLoads"),
            RuleDescriptor(
                RuleID.Plist.deadGlobalKeysShadowed, .plist, .warning,
                title: "Global ATS keys do not reach a host that has its own NSExceptionDomains entry.",
                help: """
                    A host with an `NSExceptionDomains` entry is governed only by that entry: `NSAllowsArbitraryLoads` \
                    and the other global keys have no effect on it, even when the entry is empty. A warning when the \
                    entry relaxes something itself, a note for an empty or tightening entry (the deliberate "inverted" \
                    pattern). Put what the host needs into its entry.
                    """,
                appleKey: "NSExceptionDomains"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static let narrowKeys: [ATSKey] = [
        .allowsArbitraryLoadsForMedia, .allowsArbitraryLoadsInWebContent, .allowsLocalNetworking,
    ]

    static func check(_ c: LintContext) {
        checkArbitraryLoadsOverride(c)
        checkShadowedGlobals(c)
    }

    /// Whether `NSAllowsArbitraryLoads = YES` is overridden on the OS whose rules apply.
    static func arbitraryLoadsOverridden(_ c: LintContext) -> Bool {
        // The engine's reading of §4.1, so the linter and the verdicts never disagree.
        c.configuration.arbitraryLoadsOverridden(on: c.rulesOS)
    }

    private static func checkArbitraryLoadsOverride(_ c: LintContext) {
        guard arbitraryLoadsOverridden(c) else { return }
        let present = narrowKeys.filter(c.globalPresent).map { key -> String in
            "\(key.name) = \(c.globalBool(key) == true ? "YES" : "NO")"
        }
        let path = [ATSKey.allowsArbitraryLoads.name]
        if c.lowestOS.major < 10 {
            c.emit(
                RuleID.Plist.deadArbitraryLoadsIgnored, .note,
                "NSAllowsArbitraryLoads = YES applies only on iOS 9: iOS 10+ ignores it because "
                    + "\(present.joined(separator: ", ")) is present (Apple's recommended pairing for apps that "
                    + "still support iOS 9)",
                at: path)
        } else {
            // The consequence for a public host without an entry comes from the evaluation `--explain` prints.
            let other = PolicyExplainer.otherPublicHost(c.configuration)
            c.emit(
                RuleID.Plist.deadArbitraryLoadsIgnored, .error,
                "NSAllowsArbitraryLoads = YES is ignored on iOS 10+ because \(present.joined(separator: ", ")) is "
                    + "present (any value counts): URLSession keeps ATS for public hosts without an entry of their "
                    + "own (--explain, any other public host: \(c.consequence(for: other)))",
                at: path)
        }
    }

    private static func checkShadowedGlobals(_ c: LintContext) {
        var relaxing: [ATSKey] = []
        if c.globalBool(.allowsArbitraryLoads) == true, !arbitraryLoadsOverridden(c) {
            relaxing.append(.allowsArbitraryLoads)
        }
        for key in [ATSKey.allowsArbitraryLoadsInWebContent, .allowsArbitraryLoadsForMedia]
        where c.globalBool(key) == true {
            relaxing.append(key)
        }
        let localNetworking = c.globalBool(.allowsLocalNetworking) == true
        guard !relaxing.isEmpty || localNetworking else { return }
        for (name, value) in c.exceptionDomains {
            guard let entry = PlistNode.dictionary(value) else { continue }
            if c.entryBool(entry, .exceptionAllowsInsecureHTTPLoads) == true { continue }
            var shadowed = relaxing
            if localNetworking, isLocalName(name) { shadowed.append(.allowsLocalNetworking) }
            guard !shadowed.isEmpty else { continue }
            let names = shadowed.map(\.name).joined(separator: ", ")
            let relaxesItself =
                c.entryBool(entry, .exceptionRequiresForwardSecrecy) == false
                || ["TLSv1.0", "TLSv1.1"].contains(c.entryMinimumTLS(entry) ?? "")
            if relaxesItself {
                c.emit(
                    RuleID.Plist.deadGlobalKeysShadowed, .warning,
                    "\(names) does not reach \(name): a host with its own NSExceptionDomains entry is governed only "
                        + "by that entry, so ATS stays on for it apart from what the entry relaxes (add "
                        + "NSExceptionAllowsInsecureHTTPLoads to the entry if ATS should be off)",
                    at: [ATSKey.exceptionDomains.name, name])
            } else {
                c.emit(
                    RuleID.Plist.deadGlobalKeysShadowed, .note,
                    "\(names) does not reach \(name): its NSExceptionDomains entry keeps full ATS for it (the "
                        + "\"inverted\" pattern; fine if intended)",
                    at: [ATSKey.exceptionDomains.name, name])
            }
        }
    }

    /// Unqualified names and `.local` names: the hosts `NSAllowsLocalNetworking` is about (§4.5).
    static func isLocalName(_ name: String) -> Bool {
        let n = name.hasSuffix(".") ? String(name.dropLast()) : name
        return !n.contains(".") || n.hasSuffix(".local") || DomainEntry.hostKind(n) != .name
    }
}
