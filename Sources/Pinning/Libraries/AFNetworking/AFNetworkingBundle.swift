import Foundation
import TLSModel

extension BundleLookup {
    /// `*.cer` at the top level of the main bundle: AFNetworking 4.x, or any version linked statically.
    package static let afNetworkingMainBundle = BundleLookup(
        "AFNetworking (main bundle)", folder: .mainBundle, extensions: ["cer"])
    /// `*.cer` at the top level of AFNetworking.framework: AFNetworking 2.x/3.x as a dynamic framework.
    package static let afNetworkingFrameworkBundle = BundleLookup(
        "AFNetworking (its framework bundle)", folder: .ownFramework, extensions: ["cer"])
}

extension AFNetworkingLibrary {
    /// Configured by any certificate file read (a PEM blob in a `.cer` included: the check then says what the
    /// library makes of it).
    package func isConfigured(by pins: AppPins) -> Bool { !pins.certificates.isEmpty }

    /// `policyWithPinningMode:` reads `*.cer` (NSBundle's `pathsForResourcesOfType:@"cer"`: `.CER` is not read).
    package var bundleLookups: [BundleLookup] { [.afNetworkingMainBundle, .afNetworkingFrameworkBundle] }

    /// Before 4.0, a dynamic AFNetworking reads its own framework bundle (docs/pinning-rules.md §1.1;
    /// `bundleForClass:`); statically linked, that bundle is the main bundle.
    package func bundleLookup(linkedAsFramework: Bool, majorVersion: Int?) -> BundleLookup? {
        guard linkedAsFramework, let major = majorVersion, major < 4 else { return .afNetworkingMainBundle }
        return .afNetworkingFrameworkBundle
    }

    /// The linked framework's major version (2 to 4), else 4.
    package func linkedValues(majorVersion: Int?) -> PinOptionValues {
        PinOptionValues(["afVersion": String(min(max(majorVersion ?? 4, 2), 4))])
    }

    /// Where `policyWithPinningMode:` loads `*.cer` from, by version and linkage (docs/pinning-rules.md §1.1).
    package func loadingNote(_ copy: LinkedCopy) -> String? {
        let count = LinkedCopy.count
        if bundleLookup(linkedAsFramework: copy.linkedAsFramework, majorVersion: copy.majorVersion)?.folder
            == .ownFramework
        {
            return
                "before 4.0 policyWithPinningMode: loads *.cer from AFNetworking.framework "
                + "(\(count(copy.files(.afNetworkingFrameworkBundle), "file")) there), not from the app bundle "
                + "(docs/pinning-rules.md §1.1)"
        }
        if copy.linkedAsFramework, copy.majorVersion == nil {
            return
                "version unknown: 4.x loads *.cer from the app bundle "
                + "(\(count(copy.files(.afNetworkingMainBundle), "file"))), 2.x/3.x from AFNetworking.framework "
                + "(\(count(copy.files(.afNetworkingFrameworkBundle), "file")))"
        }
        return
            "policyWithPinningMode: loads the \(count(copy.files(.afNetworkingMainBundle), "*.cer file")) at the top "
            + "level of the app bundle"
    }

    /// A dynamic AFNetworking before 4.0 reads its own bundle: the app bundle's `*.cer` files are never used
    /// (docs/pinning-rules.md §1.1).
    package func linkedFindings(_ copy: LinkedCopy, label: String, file: String?) -> [Finding] {
        let mainCer = copy.files(.afNetworkingMainBundle)
        guard
            bundleLookup(linkedAsFramework: copy.linkedAsFramework, majorVersion: copy.majorVersion)?.folder
                == .ownFramework, mainCer > 0
        else { return [] }
        let count = LinkedCopy.count
        let own = copy.files(.afNetworkingFrameworkBundle)
        let instead =
            own == 0
            ? "its own bundle has none, so policyWithPinningMode: pins nothing and rejects every connection "
                + "in a pinned mode"
            : "it pins the \(count(own, ".cer file")) in its own bundle instead"
        return [
            Finding(
                rule: RuleID.Pins.frameworkBundle, severity: .error,
                message:
                    "\(label) as a dynamic framework loads pins from its own bundle: the "
                    + "\(count(mainCer, ".cer file")) in the app bundle "
                    + "\(mainCer == 1 ? "is" : "are") never used; \(instead)",
                file: file)
        ]
    }
}
