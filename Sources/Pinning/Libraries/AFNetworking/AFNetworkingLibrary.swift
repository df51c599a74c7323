import Foundation
import TLSModel

extension PinLibrary {
    /// AFNetworking's `AFSecurityPolicy` (pinning.md §1).
    public static let afnetworking = PinLibrary(rawValue: "afnetworking")
}

/// AFNetworking's `AFSecurityPolicy` (pinning.md §1): the registry's entry.
public struct AFNetworkingLibrary: PinningLibrary {
    public init() {}

    public var id: PinLibrary { .afnetworking }
    public var name: String { "AFNetworking" }

    public var options: [PinOptionSpec] {
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

    public var bundledModes: (key: String, plausible: [String])? {
        ("mode", [AFSecurityPolicyOptions.Mode.certificate.rawValue, AFSecurityPolicyOptions.Mode.publicKey.rawValue])
    }

    public var bundleSignature: PinLibrarySignature? {
        PinLibrarySignature(framework: "AFNetworking", staticMarkers: ["AFSecurityPolicy"])
    }

    public var rules: [RuleID] {
        [
            RuleID.Pins.debugAnyHost, RuleID.Pins.debugNoValidation, RuleID.Pins.debugHygieneSkipped,
            RuleID.Pins.debugAllowInvalid, RuleID.Pins.frameworkBundle,
        ]
    }

    public var materialRules: [RuleID] { [RuleID.Pins.pemInCer] }

    public func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
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
    public var library: PinLibrary { .afnetworking }

    public var description: String {
        "AFSecurityPolicy(" + pinOptions.map { "\($0.name): \($0.value)" }.joined(separator: ", ") + ")"
    }

    public func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation {
        AFSecurityPolicyEvaluator.evaluate(
            connection, pinnedCertificates: pins.certificates, options: self, builder: builder)
    }

    public var releaseBuild: PinPolicy? { isRelaxed ? .afnetworking(release) : nil }

    /// pinning.md §2's risks of shipping the relaxed build.
    public func releaseRisks(host: String, debug: PinEvaluation, release: PinEvaluation, pins: AppPins) -> [Finding] {
        DebugReleaseComparison.risks(self, pinnedCertificates: pins.certificates, debug: debug, release: release)
    }
}

extension PinPolicy {
    /// `AFSecurityPolicy` with its properties.
    public static func afnetworking(_ options: AFSecurityPolicyOptions) -> PinPolicy { PinPolicy(options) }
}
