import Foundation
import TLSModel

extension PinLibrary {
    /// AFNetworking's `AFSecurityPolicy` (docs/pinning-rules.md §1).
    package static let afnetworking = PinLibrary(rawValue: "afnetworking")
}

/// AFNetworking's `AFSecurityPolicy` (docs/pinning-rules.md §1): the registry's entry.
package struct AFNetworkingLibrary: PinningLibrary {
    package init() {}

    package var id: PinLibrary { .afnetworking }
    package var name: String { "AFNetworking" }

    package var options: [PinOptionSpec] {
        [
            PinOptionSpec(
                "mode", flag: "--mode", .choice(AFSecurityPolicyOptions.Mode.allCases.map(\.rawValue)),
                help: "AFNetworking: AFSSLPinningMode, none|certificate|public-key.",
                discussion: "Default certificate; app: certificate and public-key."),
            PinOptionSpec(
                "allowInvalidCertificates", flag: "--allow-invalid-certificates", .boolean(default: false),
                help: "AFNetworking: allowInvalidCertificates = YES (a debug relaxation)."),
            PinOptionSpec(
                "validatesDomainName", flag: "--no-validate-domain-name", .boolean(default: true),
                help: "AFNetworking: validatesDomainName = NO (a debug relaxation)."),
            PinOptionSpec(
                "afVersion", flag: "--af-version", .integer([2, 3, 4]),
                help: "AFNetworking major version where behaviour differs: 2, 3 or 4.",
                discussion: "Default 4; app: the linked framework's, else 4."),
        ]
    }

    package var bundledModes: (key: String, plausible: [String])? {
        ("mode", [AFSecurityPolicyOptions.Mode.certificate.rawValue, AFSecurityPolicyOptions.Mode.publicKey.rawValue])
    }

    package var bundleSignature: PinLibrarySignature? {
        PinLibrarySignature(framework: "AFNetworking", staticMarkers: ["AFSecurityPolicy"])
    }

    package var rules: [RuleID] {
        [
            RuleID.Pins.debugAnyHost, RuleID.Pins.debugNoValidation, RuleID.Pins.debugHygieneSkipped,
            RuleID.Pins.debugAllowInvalid, RuleID.Pins.frameworkBundle,
        ]
    }

    package var materialRules: [RuleID] { [RuleID.Pins.pemInCer] }

    package func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
        let mode = values["mode"].flatMap(AFSecurityPolicyOptions.Mode.init(rawValue:)) ?? .certificate
        return .success(
            .afnetworking(
                AFSecurityPolicyOptions(
                    mode: mode, allowInvalidCertificates: values.bool("allowInvalidCertificates", default: false),
                    validatesDomainName: values.bool("validatesDomainName", default: true),
                    afVersion: values.int("afVersion") ?? 4)))
    }
}

extension AFSecurityPolicyOptions: PinPolicyConfiguration {
    package var library: PinLibrary { .afnetworking }

    package var description: String {
        "AFSecurityPolicy(" + pinOptions.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")"
    }

    package func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    {
        AFSecurityPolicyEvaluator.evaluate(
            connection, pinnedCertificates: pins.certificates, options: self, builder: builder)
    }

    package var releaseBuild: PinPolicy? { isRelaxed ? .afnetworking(release) : nil }

    /// docs/pinning-rules.md §2's risks of shipping the relaxed build.
    package func releaseRisks(host: String, debug: PinEvaluation, release: PinEvaluation, pins: AppPins) -> [Finding] {
        DebugReleaseComparison.risks(self, pinnedCertificates: pins.certificates, debug: debug, release: release)
    }
}

extension PinPolicy {
    /// `AFSecurityPolicy` with its properties.
    package static func afnetworking(_ options: AFSecurityPolicyOptions) -> PinPolicy { PinPolicy(options) }
}
