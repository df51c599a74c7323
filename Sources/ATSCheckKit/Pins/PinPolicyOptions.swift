import Foundation
import Pinning
import TLSModel

/// The options that describe a ``PinPolicy``, as `atscheck pins check` takes them on the command line and an
/// audit endpoint list takes them per entry (`library:`, `mode:`, …): one model, one validation, one policy.
///
/// Unset options take the library's defaults (AFNetworking 4, Certificate mode; Alamofire's
/// `PinnedCertificatesTrustEvaluator` with every validation on).
public struct PinPolicyOptions: Sendable, Equatable {
    /// `AFSSLPinningMode` as written (`none|certificate|public-key`).
    public typealias AFMode = AFSecurityPolicyOptions.Mode

    /// The Alamofire 5 evaluators by name.
    public enum AlamofireEvaluatorKind: String, Sendable, CaseIterable {
        case `default`, revocation, disabled
        case pinnedCertificates = "pinned-certificates"
        case publicKeys = "public-keys"
    }

    /// The library to emulate (default AFNetworking, as `pins check`).
    public var library: PinLibrary = .afnetworking
    /// AFNetworking: the pinning mode (default Certificate).
    public var mode: AFMode?
    /// AFNetworking: `allowInvalidCertificates`.
    public var allowInvalidCertificates = false
    /// AFNetworking: `validatesDomainName`.
    public var validatesDomainName = true
    /// AFNetworking: the major version, 2, 3 or 4 (default 4).
    public var afVersion: Int?
    /// Alamofire: the evaluator (default pinned certificates).
    public var evaluator: AlamofireEvaluatorKind?
    /// Alamofire: `acceptSelfSignedCertificates`.
    public var acceptSelfSignedCertificates = false
    /// Alamofire: `performDefaultValidation`.
    public var performDefaultValidation = true
    /// Alamofire: `validateHost`.
    public var validateHost = true

    /// The defaults (AFNetworking, Certificate mode).
    public init() {}

    /// Options with the library and its knobs.
    public init(
        library: PinLibrary, mode: AFMode? = nil, allowInvalidCertificates: Bool = false, validatesDomainName: Bool = true,
        afVersion: Int? = nil, evaluator: AlamofireEvaluatorKind? = nil, acceptSelfSignedCertificates: Bool = false,
        performDefaultValidation: Bool = true, validateHost: Bool = true
    ) {
        self.library = library
        self.mode = mode
        self.allowInvalidCertificates = allowInvalidCertificates
        self.validatesDomainName = validatesDomainName
        self.afVersion = afVersion
        self.evaluator = evaluator
        self.acceptSelfSignedCertificates = acceptSelfSignedCertificates
        self.performDefaultValidation = performDefaultValidation
        self.validateHost = validateHost
    }

    /// What is wrong with the combination, in the option names of `spelling`; nil when it is usable.
    ///
    /// AFNetworking knobs need `afnetworking`, Alamofire knobs `alamofire`; the AFNetworking version is 2, 3 or
    /// 4; `acceptSelfSignedCertificates` belongs to the pinned-certificates evaluator.
    public func problem(_ spelling: Spelling = .commandLine) -> String? {
        let afGiven = mode != nil || allowInvalidCertificates || !validatesDomainName || afVersion != nil
        if afGiven && library != .afnetworking {
            return "\(spelling.afOptions) are AFNetworking options: add \(spelling.library("afnetworking"))"
        }
        let alamofireGiven = evaluator != nil || acceptSelfSignedCertificates || !performDefaultValidation || !validateHost
        if alamofireGiven && library != .alamofire {
            return "\(spelling.alamofireOptions) are Alamofire options: add \(spelling.library("alamofire"))"
        }
        if let afVersion, !(2...4).contains(afVersion) { return "\(spelling.afVersion) must be 2, 3 or 4" }
        if acceptSelfSignedCertificates && (evaluator ?? .pinnedCertificates) != .pinnedCertificates {
            return "\(spelling.acceptSelfSigned) applies to \(spelling.evaluator("pinned-certificates")) only"
        }
        return nil
    }

    /// The policy the options describe.
    public var policy: PinPolicy {
        switch library {
        case .afnetworking:
            return .afnetworking(AFSecurityPolicyOptions(
                mode: mode ?? .certificate, allowInvalidCertificates: allowInvalidCertificates,
                validatesDomainName: validatesDomainName, afVersion: afVersion ?? 4))
        case .trustkit: return .trustkit(TrustKitOptions())
        case .nspinneddomains: return .nspinneddomains
        case .alamofire:
            let d = performDefaultValidation
            let h = validateHost
            switch evaluator ?? .pinnedCertificates {
            case .default: return .alamofire(.defaultTrust(validateHost: h))
            case .revocation: return .alamofire(.revocation(performDefaultValidation: d, validateHost: h))
            case .pinnedCertificates:
                return .alamofire(.pinnedCertificates(acceptSelfSignedCertificates: acceptSelfSignedCertificates, performDefaultValidation: d, validateHost: h))
            case .publicKeys: return .alamofire(.publicKeys(performDefaultValidation: d, validateHost: h))
            case .disabled: return .alamofire(.disabled)
            }
        }
    }

    /// How options are named in messages: command-line flags or endpoint-list keys.
    public enum Spelling: Sendable {
        /// `--mode`, `--library afnetworking`, …
        case commandLine
        /// `mode:`, `library: afnetworking`, …
        case endpointList

        var afOptions: String {
            switch self {
            case .commandLine: return "--mode, --allow-invalid-certificates, --no-validate-domain-name and --af-version"
            case .endpointList: return "mode, allowInvalidCertificates, validatesDomainName and afVersion"
            }
        }

        var alamofireOptions: String {
            switch self {
            case .commandLine: return "--evaluator, --accept-self-signed, --no-default-validation and --no-validate-host"
            case .endpointList: return "evaluator, acceptSelfSignedCertificates, performDefaultValidation and validateHost"
            }
        }

        var afVersion: String { self == .commandLine ? "--af-version" : "afVersion" }
        var acceptSelfSigned: String { self == .commandLine ? "--accept-self-signed" : "acceptSelfSignedCertificates" }
        func library(_ name: String) -> String { self == .commandLine ? "--library \(name)" : "'library: \(name)'" }
        func evaluator(_ name: String) -> String { self == .commandLine ? "--evaluator \(name)" : "'evaluator: \(name)'" }
    }
}
