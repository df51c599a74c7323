import Foundation
import TLSModel

extension PinLibrary {
    /// ATS `NSPinnedDomains` (docs/pinning-rules.md §5).
    package static let nspinneddomains = PinLibrary(rawValue: "nspinneddomains")
}

/// ATS `NSPinnedDomains` (docs/pinning-rules.md §5), configured by the Info.plist (or a pin set's pins as CA
/// identities): the registry's entry. Built into the OS, so it has no bundle signature.
package struct PinnedDomainsLibrary: PinningLibrary {
    package init() {}

    package var id: PinLibrary { .nspinneddomains }
    package var name: String { "NSPinnedDomains" }

    package var materialRules: [RuleID] { [RuleID.Pins.pinMalformed] }

    /// `NSAppTransportSecurity` → `NSPinnedDomains` as Apple's Security framework reads it; nil when the key is
    /// absent or not a dictionary.
    package func sharedMaterial(
        plist root: [String: Any], ats: [String: Any]?, file: String, line: ([String]) -> Int?
    ) -> SharedPinMaterial? {
        guard let domains = PinConfigurationParser.dictionary(ats?["NSPinnedDomains"]) else { return nil }
        return SharedPinMaterial(pinnedDomains: PinConfigurationParser.pinnedDomains(domains))
    }

    package func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
        .success(.nspinneddomains)
    }

    package func missingMaterial(_ pins: AppPins) -> String? {
        pins.pinnedDomains == nil
            ? "no NSPinnedDomains: give an Info.plist with NSAppTransportSecurity.NSPinnedDomains or a pin-set file"
            : nil
    }
}

/// `NSPinnedDomains` takes no options: its configuration is the pin material.
package struct PinnedDomainsPolicy: PinPolicyConfiguration {
    package init() {}

    package var library: PinLibrary { .nspinneddomains }

    package var description: String { "NSPinnedDomains" }

    package func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    {
        PinnedDomainsEvaluator.evaluate(
            connection, configuration: pins.pinnedDomains ?? PinnedDomainsConfiguration(domains: [:]), builder: builder)
    }
}

extension PinPolicy {
    /// ATS `NSPinnedDomains`.
    package static let nspinneddomains = PinPolicy(PinnedDomainsPolicy())
}
