import Foundation
import TLSModel

extension PinLibrary {
    /// TrustKit (docs/pinning-rules.md §3).
    package static let trustkit = PinLibrary(rawValue: "trustkit")
}

/// TrustKit (docs/pinning-rules.md §3), configured by its pin set (`TSKConfiguration` or a pin-set file): the
/// registry's entry.
package struct TrustKitLibrary: PinningLibrary {
    package init() {}

    package var id: PinLibrary { .trustkit }
    package var name: String { "TrustKit" }

    package var bundleSignature: PinLibrarySignature? {
        PinLibrarySignature(framework: "TrustKit", staticMarkers: ["TSKPinningValidator"])
    }

    package var rules: [RuleID] {
        [
            RuleID.Pins.notEnforced, RuleID.Pins.trustKitExpired, RuleID.Pins.trustKitUnsupportedKey,
            RuleID.Pins.trustKitConfigRejected, RuleID.App.trustKitNotLinked,
        ]
    }

    package var materialRules: [RuleID] { [RuleID.Pins.trustKitConfigRejected, RuleID.Pins.pinMalformed] }

    /// The pin set of the plist's `TSKConfiguration` (TrustKit loads it by itself at launch), with what TrustKit
    /// refuses and malformed pins at the lines of the deepest keys the plist has lines for.
    package func sharedMaterial(
        plist root: [String: Any], ats: [String: Any]?, file: String, line: ([String]) -> Int?
    ) -> SharedPinMaterial? {
        guard let configuration = PinConfigurationParser.dictionary(root[Self.infoPlistKey]) else { return nil }
        let (set, findings, _) = PinConfigurationParser.trustKit(configuration, file: file) { keyPath in
            var path = [Self.infoPlistKey] + keyPath
            while !path.isEmpty {
                if let found = line(path) { return found }
                path.removeLast()
            }
            return nil
        }
        return SharedPinMaterial(pinSet: set, findings: findings)
    }

    /// The Info.plist key of TrustKit's configuration.
    package static let infoPlistKey = "TSKConfiguration"

    package func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
        .success(.trustkit(TrustKitOptions()))
    }

    /// TrustKit reads `TSKConfiguration` from the Info.plist by itself, or is configured in code.
    package func loadingNote(_ copy: LinkedCopy) -> String? {
        guard let configuration = copy.infoPlist["TSKConfiguration"] as? [String: Any] else {
            return "no TSKConfiguration in the Info.plist: it is configured in code, which the bundle does not show"
        }
        let domains = (configuration["TSKPinnedDomains"] as? [String: Any])?.count ?? 0
        return "it reads TSKConfiguration from the Info.plist (\(LinkedCopy.count(domains, "pinned domain")))"
    }

    /// `TSKConfiguration` in an Info.plist of an app that does not link TrustKit: nothing reads it.
    package func unlinkedFindings(infoPlist: [String: Any], locate: ([String]) -> (file: String?, line: Int?))
        -> [Finding]
    {
        guard infoPlist["TSKConfiguration"] != nil else { return [] }
        let location = locate(["TSKConfiguration"])
        return [
            Finding(
                rule: RuleID.App.trustKitNotLinked, severity: .warning,
                message:
                    "TSKConfiguration is in the Info.plist, but TrustKit is not linked (no TrustKit.framework, "
                    + "no TrustKit class in the executable): nothing reads it",
                file: location.file, line: location.line, keyPath: "TSKConfiguration")
        ]
    }

    /// The `TSKConfiguration` domain whose policy pins `host` (TrustKit's lookup: exact, else an including parent).
    package func infoPlistEntry(pinning host: String, in pins: AppPins, now: Date) -> InfoPlistPinEntry? {
        guard let pinSet = pins.pinSet,
            case .pinned(let domain, _, _) = TrustKitPolicyLookup.lookup(host: host, in: pinSet, now: now)
        else { return nil }
        return InfoPlistPinEntry(
            origin: .trustKit, note: "TSKConfiguration entry '\(domain)'",
            keyPath: "TSKConfiguration.TSKPinnedDomains.\(domain)", subject: "TrustKit (TSKConfiguration '\(domain)')")
    }

    package func missingMaterial(_ pins: AppPins) -> String? {
        pins.pinSet == nil
            ? "no pin set for TrustKit: give a pin-set file (.json, .yaml) or an Info.plist with TSKConfiguration" : nil
    }
}

extension TrustKitOptions: PinPolicyConfiguration {
    package var library: PinLibrary { .trustkit }

    package var description: String { "TrustKit(rsa3072Supported: \(rsa3072Supported))" }

    package func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    {
        TrustKitEvaluator.evaluate(
            connection, pinSet: pins.pinSet ?? PinSet(domains: [:]), options: self, builder: builder)
    }
}

extension PinPolicy {
    /// TrustKit, configured by the pin set.
    package static func trustkit(_ options: TrustKitOptions) -> PinPolicy { PinPolicy(options) }
}
