import Foundation
import TLSModel

extension PolicyExplainer {
    /// The linter rules whose finding on an `NSExceptionDomains` key means the key never matches a host (a
    /// wildcard, a scheme, a port, a path, a leading dot, upper case, a key that is not a host name or CIDR
    /// range, a known key at the wrong level). `--explain` shows such a key as never matching instead of
    /// explaining its entry, so the two commands agree.
    public static let neverMatchingRules: Set<RuleID> = [
        RuleID.Plist.domainInvalid, RuleID.Plist.domainScheme, RuleID.Plist.domainPort, RuleID.Plist.domainPath,
        RuleID.Plist.domainWildcard, RuleID.Plist.domainLeadingDot, RuleID.Plist.domainUppercase,
        RuleID.Plist.domainInvalidCIDR, RuleID.Plist.keyWrongLevel,
    ]

    /// The oldest OS an Info.plist says the app runs on, in iOS numbering: `MinimumOSVersion`, else
    /// `LSMinimumSystemVersion` (macOS) mapped to the iOS release with the same ATS rules; nil when neither
    /// is present or parses.
    public static func lowestOS(of document: PlistDocument) -> AppleOSVersion? {
        guard document.kind == .infoPlist else { return nil }
        let root = document.rootDictionary
        if let text = root["MinimumOSVersion"] as? String, let version = AppleOSVersion(anyRelease: text) {
            return version
        }
        if let text = root["LSMinimumSystemVersion"] as? String, let macOS = AppleOSVersion(anyRelease: text) {
            return AppleOSVersion(macOS: macOS)
        }
        return nil
    }

    /// Explains a plist document the way `atscheck plist --explain` does: keys the linter says never match are
    /// shown as such, and only the eras from the app's oldest OS through `os` are listed.
    /// - Parameters:
    ///   - document: the plist.
    ///   - os: the newest release to list (`--os-version`; ``AppleOSVersion/newest`` lists open-ended eras).
    ///   - deploymentTarget: the oldest release (`--deployment-target`); nil: ``lowestOS(of:)``, else every era.
    /// - Returns: the explanation.
    public static func explain(
        document: PlistDocument, os: AppleOSVersion = .newest, deploymentTarget: AppleOSVersion? = nil
    ) -> PolicyExplanation {
        let configuration = ATSConfiguration(dictionary: document.atsDictionary ?? [:])
        var never: [String: String] = [:]
        for finding in PlistLinter.lint(document, options: PlistLinter.Options(os: os))
        where neverMatchingRules.contains(finding.rule) {
            for key in configuration.exceptionDomains.keys where finding.keyPath == ATSKeyPath.exceptionDomain(key) {
                never[key] = never[key] ?? finding.message
            }
        }
        let eras = eras(for: configuration, from: deploymentTarget ?? lowestOS(of: document), through: os)
        return explain(configuration, eras: eras, neverMatching: never)
    }

    /// The eras of ``eras(for:)`` that overlap `lowest`…`newest`, relabelled to start at `lowest` and end at
    /// `newest` (an app for 15.0 gets `15–16` and `17+`, no `9` row).
    /// - Parameters:
    ///   - configuration: the app's configuration.
    ///   - lowest: the oldest release the app runs on; nil: no lower cut.
    ///   - newest: the newest release; below ``AppleOSVersion/newest`` the last era ends there.
    /// - Returns: the eras, oldest first (never empty: at least the era of `newest`).
    public static func eras(
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
