import ATSPolicy
import Foundation
import TLSModel

/// Which bundled-certificate pinning `atscheck app` evaluates: by default every mode the bundle makes plausible
/// (the mode is set in code the bundle does not show); `--library`, `--mode`, `--evaluator` and `--af-version`
/// name it, and then a rejection fails the run.
public struct AppPinScope: Sendable, Equatable {
    /// `afnetworking` or `alamofire`; nil: every linked library.
    public var library: PinLibrary?
    /// AFNetworking's mode; nil: certificate and public-key.
    public var mode: PinPolicyOptions.AFMode?
    /// Alamofire's evaluator; nil: pinned-certificates and public-keys.
    public var evaluator: PinPolicyOptions.AlamofireEvaluatorKind?
    /// AFNetworking's major version; nil: the linked framework's, else 4.
    public var afVersion: Int?

    /// Every plausible mode of every linked library.
    public init(library: PinLibrary? = nil, mode: PinPolicyOptions.AFMode? = nil,
                evaluator: PinPolicyOptions.AlamofireEvaluatorKind? = nil, afVersion: Int? = nil) {
        self.library = library
        self.mode = mode
        self.evaluator = evaluator
        self.afVersion = afVersion
    }

    /// Whether the user named the policy (a rejection is then an error, not a warning).
    public var isNamed: Bool { library != nil || mode != nil || evaluator != nil }

    /// What is wrong with the combination, in command-line spelling; nil when usable.
    public var problem: String? {
        if let library, library != .afnetworking && library != .alamofire {
            return "--library for an app names the library that loads the bundled certificates: afnetworking or alamofire (NSPinnedDomains and TSKConfiguration are always checked)"
        }
        var options = PinPolicyOptions()
        options.library = library ?? (evaluator != nil ? .alamofire : .afnetworking)
        options.mode = mode
        options.evaluator = evaluator
        options.afVersion = afVersion
        return options.problem(.commandLine)
    }
}

/// What `atscheck app` (live) learns: the offline facts, every endpoint judged under each OS era of the build,
/// the exception debt, the pin checks, and one report whose findings and endpoints every renderer reads.
public struct AppLiveResult: Sendable {
    /// The bundle's facts and offline findings.
    public var offline: AppOfflineResult
    /// `harvested`, or the `--endpoints` file that replaced the harvest.
    public var endpointSource: String
    /// The eras judged (from the minimum OS to the newest).
    public var eras: [AppleOSVersion]
    /// Each endpoint's verdict per era, in list order.
    public var endpoints: [AppEndpointEras]
    /// The exception debt, each item with the eras it concerns.
    public var exceptionDebt: [AppExceptionDebt]
    public var pins: [AppPinCheck]
    /// Offline findings + live findings (each once, with the eras it holds on); endpoints with the evaluation of
    /// the first era they fail on (else the newest).
    public var report: ScanReport

    /// The exit status by the audit's contract: 1 an error finding; else 2 an endpoint not scanned; else 0.
    public var exitStatus: ExitStatus { audit.exitStatus }
    /// One line for stderr when ``exitStatus`` is not zero.
    public var exitReason: String? {
        audit.exitReason.map { $0.replacingOccurrences(of: "atscheck: audit failed", with: "atscheck: app audit failed") }
    }

    var audit: AuditResult { AuditResult(report: report, exceptionDebt: exceptionDebt.map(\.debt)) }
}
