import Foundation
import TLSModel

extension PolicyExplainer {
    /// The linter rules whose finding on an `NSExceptionDomains` key means the key never matches a host (a
    /// wildcard, a scheme, a port, a path, a leading dot, upper case, a key that is not a host name or CIDR
    /// range, a known key at the wrong level). `--explain` shows such a key as never matching instead of
    /// explaining its entry, so the two commands agree.
    package static let neverMatchingRules: Set<RuleID> = [
        RuleID.Plist.domainInvalid, RuleID.Plist.domainScheme, RuleID.Plist.domainPort, RuleID.Plist.domainPath,
        RuleID.Plist.domainWildcard, RuleID.Plist.domainLeadingDot, RuleID.Plist.domainUppercase,
        RuleID.Plist.domainInvalidCIDR, RuleID.Plist.keyWrongLevel,
    ]

    /// The oldest OS an Info.plist says the app runs on, in iOS numbering: ``LowestOS/of(_:deploymentTarget:settings:)``
    /// without options (`MinimumOSVersion`, else a macOS app's `LSMinimumSystemVersion` mapped to the iOS release with
    /// the same ATS rules; never an iOS app's Mac Catalyst minimum); nil when nothing says.
    package static func lowestOS(of document: PlistDocument) -> AppleOSVersion? {
        LowestOS.of(document)?.version
    }

    /// Explains a plist document the way `atscheck plist --explain` does: keys the linter says never match are
    /// shown as such, and only the eras from the app's oldest OS through `os` are listed.
    /// - Parameters:
    ///   - document: the plist.
    ///   - os: the newest release to list (`--os-version`; ``AppleOSVersion/newest`` lists open-ended eras).
    ///   - deploymentTarget: the oldest release (`--deployment-target`); nil: ``lowestOS(of:)``, else every era.
    /// - Returns: the explanation.
    package static func explain(
        document: PlistDocument, os: AppleOSVersion = .newest, deploymentTarget: AppleOSVersion? = nil
    ) -> PolicyExplanation {
        explain(document: document, os: os, deploymentTarget: deploymentTarget?.description, settings: BuildSettings())
    }

    /// Explains a plist document as `atscheck plist --explain` does, the oldest release found as the linter finds it
    /// (``LowestOS``), and says which key decided it and which build configuration the document is.
    /// - Parameters:
    ///   - document: the plist (one configuration of a preprocessed one).
    ///   - os: the newest release to list.
    ///   - deploymentTarget: `--deployment-target` as written.
    ///   - settings: the build settings given (`IPHONEOS_DEPLOYMENT_TARGET`, …).
    /// - Returns: the explanation.
    package static func explain(
        document: PlistDocument, os: AppleOSVersion, deploymentTarget: String?, settings: BuildSettings
    ) -> PolicyExplanation {
        let configuration = ATSConfiguration(dictionary: document.atsDictionary ?? [:])
        var never: [String: String] = [:]
        // By key path: one look-up per finding, not a walk over the keys (100,000 domains, issue 32).
        var keyOfPath: [String: String] = [:]
        for key in configuration.exceptionDomains.keys { keyOfPath[ATSKeyPath.exceptionDomain(key)] = key }
        for finding in PlistLinter.lint(document, options: PlistLinter.Options(os: os))
        where neverMatchingRules.contains(finding.rule) {
            if let path = finding.keyPath, let key = keyOfPath[path] { never[key] = never[key] ?? finding.message }
        }
        let lowest = LowestOS.of(document, deploymentTarget: deploymentTarget, settings: settings)
        let eras = eras(for: configuration, from: lowest?.version, through: os)
        var explanation = explain(configuration, eras: eras, neverMatching: never)
        explanation.lowestOS = lowest.map { $0.text }
        explanation.lowestOSSource = lowest?.source.rawValue
        explanation.configuration = document.configuration
        return explanation
    }

    /// What happens to `host` for URLSession on each era from `lowest` through `newest`, in `--explain`'s words (its
    /// cells' reasons): one reason when every era agrees, else `on iOS 9: …; on iOS 10–16: …`. The one source of
    /// "what happens to this host" for the linter's messages.
    /// - Parameters:
    ///   - host: the host.
    ///   - configuration: the app's configuration.
    ///   - lowest: the app's oldest release; nil: every era.
    ///   - newest: the rules' release.
    static func consequence(
        for host: String, configuration: ATSConfiguration, from lowest: AppleOSVersion?, through newest: AppleOSVersion
    ) -> String {
        let cells = eras(for: configuration, from: lowest, through: newest).map { era in
            (
                era.label,
                explain(host: host, for: ATSClient(os: era.os, kind: .urlSession), configuration: configuration)
            )
        }
        let reasons = cells.map(\.1.reason)
        if Set(reasons).count == 1 { return reasons[0] }
        return cells.map { "on iOS \($0.0): \($0.1.reason)" }.joined(separator: "; ")
    }

    /// The eras of ``eras(for:)`` that overlap `lowest`…`newest`, relabelled to start at `lowest` and end at
    /// `newest` (an app for 15.0 gets `15–16` and `17+`, no `9` row).
    /// - Parameters:
    ///   - configuration: the app's configuration.
    ///   - lowest: the oldest release the app runs on; nil: no lower cut.
    ///   - newest: the newest release; below ``AppleOSVersion/newest`` the last era ends there.
    /// - Returns: the eras, oldest first (never empty: at least the era of `newest`).
    package static func eras(
        for configuration: ATSConfiguration, from lowest: AppleOSVersion?, through newest: AppleOSVersion
    ) -> [Era] {
        let all = eras(for: configuration)
        var kept: [Era] = []
        for (index, era) in all.enumerated() {
            let next = index + 1 < all.count ? all[index + 1].os : nil
            let start = max(era.os, lowest ?? era.os)
            guard start <= newest, next.map({ start < $0 }) ?? true else { continue }
            let openEnded = next == nil && newest == .newest
            let end: AppleOSVersion? = openEnded ? nil : min(newest, next.map(AppleOSEra.release(before:)) ?? newest)
            var label = AppleOSEra.label(start)
            if let end, end != start { label += "–" + AppleOSEra.label(end) } else if end == nil { label += "+" }
            kept.append(Era(label: label, os: start))
        }
        if kept.isEmpty, let era = all.last(where: { $0.os <= newest }) ?? all.first {
            kept = [Era(label: AppleOSEra.label(newest), os: max(era.os, newest))]
        }
        return kept
    }
}
