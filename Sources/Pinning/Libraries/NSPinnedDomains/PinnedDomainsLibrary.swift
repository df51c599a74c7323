import Foundation
import TLSModel

extension PinLibrary {
    /// ATS `NSPinnedDomains` (pinning.md §5).
    public static let nspinneddomains = PinLibrary(rawValue: "nspinneddomains")
}

/// ATS `NSPinnedDomains` (pinning.md §5), configured by the Info.plist (or a pin set's pins as CA identities):
/// the registry's entry. Built into the OS, so it has no bundle signature.
public struct PinnedDomainsLibrary: PinningLibrary {
    public init() {}

    public var id: PinLibrary { .nspinneddomains }
    public var name: String { "NSPinnedDomains" }

    public var materialRules: [RuleID] { [RuleID.Pins.pinMalformed] }

    public func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
        .success(.nspinneddomains)
    }

    public func missingMaterial(_ pins: AppPins) -> String? {
        pins.pinnedDomains == nil
            ? "no NSPinnedDomains: give an Info.plist with NSAppTransportSecurity.NSPinnedDomains or a pin-set file"
            : nil
    }
}

/// `NSPinnedDomains` takes no options: its configuration is the pin material.
public struct PinnedDomainsPolicy: PinPolicyConfiguration {
    public init() {}

    public var library: PinLibrary { .nspinneddomains }

    public var description: String { "NSPinnedDomains" }

    public func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation {
        PinnedDomainsEvaluator.evaluate(
            connection, configuration: pins.pinnedDomains ?? PinnedDomainsConfiguration(domains: [:]), builder: builder)
    }
}

extension PinPolicy {
    /// ATS `NSPinnedDomains`.
    public static let nspinneddomains = PinPolicy(PinnedDomainsPolicy())
}
