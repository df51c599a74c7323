import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel

/// Which bundled-certificate pinning `atscheck app` evaluates: by default every mode the bundle makes plausible
/// (the mode is set in code the bundle does not show; ``PinningLibrary/bundledModes``); `--library`, `--mode`,
/// `--evaluator` and `--af-version` name it, and then a rejection fails the run.
public struct AppPinScope: Sendable, Equatable {
    /// A library that loads bundled certificates; nil: every linked one.
    public var library: PinLibrary?
    /// The options given (`mode`, `evaluator`, `afVersion`), by endpoint-list key.
    public var values: PinOptionValues

    /// Every plausible mode of every linked library.
    public init(library: PinLibrary? = nil, values: PinOptionValues = PinOptionValues()) {
        self.library = library
        self.values = values
    }

    /// The registered libraries that load certificate files from the bundle (AFNetworking, Alamofire).
    static var loaders: [any PinningLibrary] { PinningLibraries.all.filter { $0.bundledModes != nil } }

    /// Whether the user named the policy (a rejection is then an error, not a warning).
    public var isNamed: Bool { library != nil || Self.loaders.contains { namesMode(of: $0) } }

    /// Whether the mode option of `library` was given (`--mode` for AFNetworking, `--evaluator` for Alamofire).
    func namesMode(of library: any PinningLibrary) -> Bool {
        library.bundledModes.map { values[$0.key] != nil } ?? false
    }

    /// The library the options describe: the one named, else the first whose mode was given, else the first
    /// loader.
    var owner: PinLibrary {
        library ?? Self.loaders.first(where: namesMode)?.id ?? Self.loaders[0].id
    }

    /// What is wrong with the combination, in command-line spelling; nil when usable.
    public var problem: String? {
        if let library, !Self.loaders.contains(where: { $0.id == library }) {
            let names = PinPolicyOptions.either(Self.loaders.map(\.id.rawValue))
            return
                "--library for an app names the library that loads the bundled certificates: \(names) "
                + "(NSPinnedDomains and TSKConfiguration are always checked)"
        }
        return PinPolicyOptions(library: owner, values: values).problem(.commandLine)
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
        audit.exitReason.map {
            $0.replacingOccurrences(of: "atscheck: audit failed", with: "atscheck: app audit failed")
        }
    }

    var audit: AuditResult { AuditResult(report: report, exceptionDebt: exceptionDebt.map(\.debt)) }
}
