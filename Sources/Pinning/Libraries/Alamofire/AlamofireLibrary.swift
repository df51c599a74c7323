import Foundation
import TLSModel

extension PinLibrary {
    /// Alamofire 5's server trust evaluators (docs/pinning-rules.md §4).
    package static let alamofire = PinLibrary(rawValue: "alamofire")
}

/// Alamofire 5's server trust evaluators (docs/pinning-rules.md §4): the registry's entry.
package struct AlamofireLibrary: PinningLibrary {
    /// The evaluators by the name `--evaluator` and `evaluator:` take.
    package enum EvaluatorKind: String, Sendable, CaseIterable {
        case `default`, revocation, disabled
        case pinnedCertificates = "pinned-certificates"
        case publicKeys = "public-keys"
    }

    package init() {}

    package var id: PinLibrary { .alamofire }
    package var name: String { "Alamofire" }

    package var options: [PinOptionSpec] {
        [
            PinOptionSpec(
                "evaluator", flag: "--evaluator", .choice(EvaluatorKind.allCases.map(\.rawValue)),
                help: "Alamofire: default|revocation|pinned-certificates|public-keys|disabled.",
                discussion: "Default pinned-certificates; app: pinned-certificates and public-keys."),
            PinOptionSpec(
                "acceptSelfSignedCertificates", flag: "--accept-self-signed", .boolean(default: false),
                help: "Alamofire: acceptSelfSignedCertificates = true."),
            PinOptionSpec(
                "performDefaultValidation", flag: "--no-default-validation", .boolean(default: true),
                help: "Alamofire: performDefaultValidation = false."),
            PinOptionSpec(
                "validateHost", flag: "--no-validate-host", .boolean(default: true),
                help: "Alamofire: validateHost = false."),
        ]
    }

    package var bundledModes: (key: String, plausible: [String])? {
        ("evaluator", [EvaluatorKind.pinnedCertificates.rawValue, EvaluatorKind.publicKeys.rawValue])
    }

    package var bundleSignature: PinLibrarySignature? {
        PinLibrarySignature(framework: "Alamofire", staticMarkers: ["PinnedCertificatesTrustEvaluator", "9Alamofire"])
    }

    package var rules: [RuleID] {
        [RuleID.Pins.alamofireValidationOff, RuleID.Pins.alamofireDisabled, RuleID.Pins.revocationUnchecked]
    }

    package var materialRules: [RuleID] { [RuleID.Pins.pemInCer] }

    package func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem> {
        let kind = values["evaluator"].flatMap(EvaluatorKind.init(rawValue:)) ?? .pinnedCertificates
        let selfSigned = values.bool("acceptSelfSignedCertificates", default: false)
        let d = values.bool("performDefaultValidation", default: true)
        let h = values.bool("validateHost", default: true)
        if selfSigned && kind != .pinnedCertificates {
            let flag = options[1]
            let evaluator = spelling.value(options[0], EvaluatorKind.pinnedCertificates.rawValue)
            return .failure(PinOptionProblem("\(spelling.name(flag)) applies to \(evaluator) only"))
        }
        switch kind {
        case .default: return .success(.alamofire(.defaultTrust(validateHost: h)))
        case .revocation: return .success(.alamofire(.revocation(performDefaultValidation: d, validateHost: h)))
        case .pinnedCertificates:
            return .success(
                .alamofire(
                    .pinnedCertificates(
                        acceptSelfSignedCertificates: selfSigned, performDefaultValidation: d, validateHost: h)))
        case .publicKeys: return .success(.alamofire(.publicKeys(performDefaultValidation: d, validateHost: h)))
        case .disabled: return .success(.alamofire(.disabled))
        }
    }
}

extension AlamofireEvaluator: PinPolicyConfiguration {
    package var library: PinLibrary { .alamofire }

    package func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    {
        AlamofireTrustEvaluation.evaluate(
            connection, evaluator: self, pinnedCertificates: pins.certificates, builder: builder)
    }

    /// The evaluator with Alamofire's defaults for the flags a debug build turns off.
    package var releaseBuild: PinPolicy? {
        switch self {
        case .pinnedCertificates(let selfSigned, let d, let h) where selfSigned || !d || !h:
            return .alamofire(.pinnedCertificates())
        case .publicKeys(let d, let h) where !d || !h: return .alamofire(.publicKeys())
        case .defaultTrust(false): return .alamofire(.defaultTrust())
        case .revocation(let d, let h, let o) where !d || !h: return .alamofire(.revocation(options: o))
        default: return nil
        }
    }
}

extension PinPolicy {
    /// An Alamofire 5 evaluator.
    package static func alamofire(_ evaluator: AlamofireEvaluator) -> PinPolicy { PinPolicy(evaluator) }
}
