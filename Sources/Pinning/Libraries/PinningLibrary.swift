import Foundation
import TLSModel

/// One pinning mechanism atscheck reproduces (AFNetworking, TrustKit, Alamofire, `NSPinnedDomains`): everything
/// about it that the commands need, in one place (issue 21). Each library lives in its own folder under
/// `Sources/Pinning/Libraries/` and is registered once, in ``PinningLibraries/all``.
///
/// The commands never switch over libraries: `pins check`, the audit's endpoint lists and `app` read the options a
/// library takes from ``options``, build its configured decision procedure with ``policy(_:spelling:)``, evaluate
/// it (``PinPolicyConfiguration/evaluate(_:pins:builder:)``), compare a debug build with its release counterpart
/// (``PinPolicyConfiguration/releaseBuild``), find it in an app bundle (``bundleSignature``) and attribute findings to
/// it
/// (``rules``).
package protocol PinningLibrary: Sendable {
    /// The id: `--library`, an endpoint list's `library:`, the reports' `library`.
    var id: PinLibrary { get }
    /// The library's name as its users write it (`AFNetworking`).
    var name: String { get }
    /// The options it reads, in endpoint-list keys, with their command-line flags. Empty when the configuration
    /// comes from the pin material alone (TrustKit, `NSPinnedDomains`).
    var options: [PinOptionSpec] { get }
    /// The option that names the pinning mode `atscheck app` tries on the certificates the library loads from the
    /// app bundle, and the values tried when the user does not name one; nil when the library loads no bundled
    /// certificate files.
    var bundledModes: (key: String, plausible: [String])? { get }
    /// How the library shows in an app bundle; nil for one built into the OS.
    var bundleSignature: PinLibrarySignature? { get }
    /// The catalogue entries only this library's evaluation or configuration emits.
    var rules: [RuleID] { get }
    /// Findings about pin material that concern this library (and the others that list them) and no other: a
    /// PEM blob in a `.cer` concerns the libraries that load certificate files, a TrustKit objection TrustKit.
    var materialRules: [RuleID] { get }
    /// The configured decision procedure for `values` (already checked against ``options``).
    /// - Returns: the policy, or why the combination is unusable, in `spelling`.
    func policy(_ values: PinOptionValues, spelling: PinOptionSpelling) -> Result<PinPolicy, PinOptionProblem>
    /// Why `pins` cannot configure the library (TrustKit without a pin set), nil when it can.
    func missingMaterial(_ pins: AppPins) -> String?
    /// Whether `pins`, as read, configure the library, so `cert --pins` checks it when no `--library` is named:
    /// by default when nothing is missing (``missingMaterial(_:)``); the libraries that load certificate files
    /// when there is one.
    func isConfigured(by pins: AppPins) -> Bool
    /// Its own pin material in an Info.plist (or a plist given to `--pins`), with findings about it; nil when the
    /// plist holds none or the library's material lives in ``AppPins``' shared fields (certificates, a TrustKit pin
    /// set, `NSPinnedDomains`). The loader keeps it in ``AppPins/libraryMaterial`` under ``id``.
    func material(plist root: [String: Any], file: String) -> (material: any LibraryPinMaterial, findings: [Finding])?
    /// Its material in ``AppPins``' shared fields (a TrustKit pin set, `NSPinnedDomains`) in an Info.plist (or a
    /// plist given to `--pins`), with findings about it; nil when the plist holds none. The loader merges it into
    /// the shared fields, a later plist's domains replacing an earlier one's.
    /// - Parameters:
    ///   - root: The plist's root dictionary.
    ///   - ats: Its `NSAppTransportSecurity` dictionary (the root of a bare ATS dictionary); nil when it has none.
    ///   - file: The plist's path, for findings.
    ///   - line: The line of a key path from the plist's root, when the plist has lines.
    func sharedMaterial(plist root: [String: Any], ats: [String: Any]?, file: String, line: ([String]) -> Int?)
        -> SharedPinMaterial?
    /// Every default lookup by which it reads certificate files from an app bundle, in the order reports list
    /// them; empty when it loads none (TrustKit, `NSPinnedDomains`).
    var bundleLookups: [BundleLookup] { get }
    /// The lookup a linked copy uses: by its linkage and the leading number of its version (AFNetworking 2.x/3.x
    /// as a dynamic framework reads its own bundle). Nil when it loads no certificate files: `app` reports that as
    /// not supported.
    func bundleLookup(linkedAsFramework: Bool, majorVersion: Int?) -> BundleLookup?
    /// Where a linked copy loads its pins from, for `app`'s library note; nil when atscheck does not model it (the
    /// note then says so).
    func loadingNote(_ copy: LinkedCopy) -> String?
    /// What `app` finds wrong with a copy the app links, beyond its note (AFNetworking 2.x/3.x as a dynamic
    /// framework never reads the app bundle's `.cer` files); `label` names the copy (name and version), `file` is
    /// where it was found. Empty by default.
    func linkedFindings(_ copy: LinkedCopy, label: String, file: String?) -> [Finding]
    /// What `app` finds when the Info.plist configures the library but the app does not link it (TrustKit's
    /// `TSKConfiguration`, which nothing reads then). `locate` gives the Info.plist's file and the line of a key
    /// path. Empty by default (and for a library built into the OS).
    func unlinkedFindings(infoPlist: [String: Any], locate: ([String]) -> (file: String?, line: Int?)) -> [Finding]
    /// The entry of the configuration the library reads from the app's Info.plist by itself (TrustKit's
    /// `TSKConfiguration`) that pins `host` at `now`, which `app` checks the host's live chain against; nil when no
    /// entry pins it or the library reads no such configuration (the default: `app` checks nothing for it there).
    func infoPlistEntry(pinning host: String, in pins: AppPins, now: Date) -> InfoPlistPinEntry?
    /// Option values implied by the copy an app links (AFNetworking's `afVersion` from its framework's version),
    /// for those the user did not give.
    func linkedValues(majorVersion: Int?) -> PinOptionValues
    /// The `pins extract --format` formats it writes (none by default).
    var extractFormats: [PinMaterialWriter] { get }
    /// What `pins extract` warns about the recommended path for this library (a key TrustKit cannot hash).
    func recommendationFindings(host: String, path: [CertificateFacts]) -> [Finding]
}

extension PinningLibrary {
    package var options: [PinOptionSpec] { [] }
    package var bundledModes: (key: String, plausible: [String])? { nil }
    package var bundleSignature: PinLibrarySignature? { nil }
    package var rules: [RuleID] { [] }
    package var materialRules: [RuleID] { [] }
    package func missingMaterial(_ pins: AppPins) -> String? { nil }
    package func isConfigured(by pins: AppPins) -> Bool { missingMaterial(pins) == nil }
    package func material(plist root: [String: Any], file: String) -> (
        material: any LibraryPinMaterial, findings: [Finding]
    )? { nil }
    package func sharedMaterial(
        plist root: [String: Any], ats: [String: Any]?, file: String, line: ([String]) -> Int?
    ) -> SharedPinMaterial? { nil }
    package var bundleLookups: [BundleLookup] { [] }
    package func bundleLookup(linkedAsFramework: Bool, majorVersion: Int?) -> BundleLookup? { bundleLookups.first }
    package func linkedValues(majorVersion: Int?) -> PinOptionValues { PinOptionValues() }
    package func loadingNote(_ copy: LinkedCopy) -> String? { nil }
    package func linkedFindings(_ copy: LinkedCopy, label: String, file: String?) -> [Finding] { [] }
    package func infoPlistEntry(pinning host: String, in pins: AppPins, now: Date) -> InfoPlistPinEntry? { nil }
    package func unlinkedFindings(infoPlist: [String: Any], locate: ([String]) -> (file: String?, line: Int?))
        -> [Finding]
    { [] }
    package var extractFormats: [PinMaterialWriter] { [] }
    package func recommendationFindings(host: String, path: [CertificateFacts]) -> [Finding] { [] }
}

/// A library's material in ``AppPins``' shared fields, read from a plist
/// (``PinningLibrary/sharedMaterial(plist:ats:file:line:)``).
package struct SharedPinMaterial: Sendable {
    /// The TrustKit-model pin set; nil when the library keeps none.
    package var pinSet: PinSet?
    /// The `NSPinnedDomains` configuration; nil when the library keeps none.
    package var pinnedDomains: PinnedDomainsConfiguration?
    /// Findings about the material, in the order to report them.
    package var findings: [Finding]

    /// Material for the shared fields.
    package init(pinSet: PinSet? = nil, pinnedDomains: PinnedDomainsConfiguration? = nil, findings: [Finding] = []) {
        self.pinSet = pinSet
        self.pinnedDomains = pinnedDomains
        self.findings = findings
    }
}

/// The registry: every library atscheck reproduces, in the order help and messages list them. Adding a library is
/// a folder under `Libraries/` and one line here.
package enum PinningLibraries {
    package static let all: [any PinningLibrary] = [
        AFNetworkingLibrary(), TrustKitLibrary(), AlamofireLibrary(), PinnedDomainsLibrary(),
    ]

    /// The library used when none is named (`pins check`, an endpoint list entry without `library:`).
    package static var `default`: any PinningLibrary { all[0] }

    /// The library with id `id`; nil when none is registered.
    package static func named(_ id: PinLibrary) -> (any PinningLibrary)? {
        all.first { $0.id == id }
    }

    /// Whether a finding about pin material concerns `library`: a rule some library lists in
    /// ``PinningLibrary/materialRules`` concerns only those; any other concerns every library.
    package static func concerns(_ rule: RuleID, _ library: PinLibrary) -> Bool {
        let claimants = all.filter { $0.materialRules.contains(rule) }.map(\.id)
        return claimants.isEmpty || claimants.contains(library)
    }

    /// `afnetworking|trustkit|alamofire|nspinneddomains`.
    package static var idList: String { all.map(\.id.rawValue).joined(separator: "|") }
}

/// The pin material an app configures its library with: bundled certificates (AFNetworking, Alamofire), a
/// TrustKit pin set, `NSPinnedDomains`.
package struct AppPins: Sendable {
    /// The certificates the library loads (AFNetworking's and Alamofire's pinned certificates).
    package var certificates: [CertificateFacts]
    /// TrustKit's configuration.
    package var pinSet: PinSet?
    /// `NSPinnedDomains`.
    package var pinnedDomains: PinnedDomainsConfiguration?
    /// The material a library defines for itself (``PinningLibrary/material(plist:file:)``), by library: the open,
    /// per-library value a library added after the shared fields above reads.
    package var libraryMaterial: [PinLibrary: any LibraryPinMaterial]

    /// The material.
    /// - Parameters:
    ///   - certificates: The certificates the library loads.
    ///   - pinSet: TrustKit's configuration.
    ///   - pinnedDomains: `NSPinnedDomains`.
    ///   - libraryMaterial: Material libraries define for themselves, by library.
    package init(
        certificates: [CertificateFacts] = [], pinSet: PinSet? = nil, pinnedDomains: PinnedDomainsConfiguration? = nil,
        libraryMaterial: [PinLibrary: any LibraryPinMaterial] = [:]
    ) {
        self.certificates = certificates
        self.pinSet = pinSet
        self.pinnedDomains = pinnedDomains
        self.libraryMaterial = libraryMaterial
    }

    /// `library`'s own material as its type; nil when none was loaded (or it is of another type).
    package func material<Material: LibraryPinMaterial>(of library: PinLibrary, as type: Material.Type) -> Material? {
        libraryMaterial[library] as? Material
    }
}

/// Pin material a library defines for itself (an OkHttp-style pinner's host patterns and hashes): an open,
/// per-library value in ``AppPins/libraryMaterial``, read and judged only by the library that defines it.
package protocol LibraryPinMaterial: Sendable {}

/// A library's configured decision procedure: AFNetworking's `AFSecurityPolicyOptions`, an Alamofire evaluator,
/// TrustKit's options, `NSPinnedDomains`.
package protocol PinPolicyConfiguration: Sendable, Hashable, CustomStringConvertible {
    /// The library it configures.
    var library: PinLibrary { get }
    /// Decides as the library would for one connection.
    func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    /// The same configuration without debug relaxations (the release build), nil when nothing is relaxed.
    var releaseBuild: PinPolicy? { get }
    /// The risks of shipping this (relaxed) configuration, given its evaluation and the release one's.
    func releaseRisks(host: String, debug: PinEvaluation, release: PinEvaluation, pins: AppPins) -> [Finding]
}

extension PinPolicyConfiguration {
    package var releaseBuild: PinPolicy? { nil }

    /// The generic risk: the relaxed build accepts what the release build rejects.
    package func releaseRisks(host: String, debug: PinEvaluation, release: PinEvaluation, pins: AppPins) -> [Finding] {
        guard debug.verdict == .accept, release.verdict == .reject else { return [] }
        let why = release.findings.first { $0.rule == RuleID.Pins.rejected }?.message ?? release.result
        return [
            Finding(
                rule: RuleID.Pins.debugReleaseDiffers,
                severity: RuleRegistry.pins.descriptor(for: RuleID.Pins.debugReleaseDiffers)?.severity ?? .warning,
                message: "the relaxed evaluator accepts \(host) but the default one rejects it (\(why)): "
                    + "tests with the relaxed build prove nothing about release")
        ]
    }
}

/// A configured pinning policy of any library: the value `pins check`, the audit and `app` evaluate.
package struct PinPolicy: Sendable, Hashable, CustomStringConvertible {
    /// The library's configuration.
    package let configuration: any PinPolicyConfiguration

    package init(_ configuration: some PinPolicyConfiguration) {
        self.configuration = configuration
    }

    /// The library.
    package var library: PinLibrary { configuration.library }

    /// The same mode without relaxations (the release build), or nil when nothing is relaxed.
    package var release: PinPolicy? { configuration.releaseBuild }

    package var description: String { configuration.description }

    /// Decides as the library would.
    package func evaluate(_ connection: PinConnection, pins: AppPins, builder: some TrustPathBuilding) -> PinEvaluation
    {
        configuration.evaluate(connection, pins: pins, builder: builder)
    }

    package static func == (lhs: PinPolicy, rhs: PinPolicy) -> Bool {
        AnyHashable(lhs.configuration) == AnyHashable(rhs.configuration)
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(AnyHashable(configuration))
    }
}

/// How a library shows in an app bundle.
package struct PinLibrarySignature: Sendable, Equatable {
    /// The name of its `.framework` folder under `Frameworks/` (compared case-insensitively).
    package var framework: String
    /// Strings only that library's code puts in a binary that links it statically: Objective-C class names, Swift
    /// type names (inside mangled names). Chosen to be specific, not exhaustive.
    package var staticMarkers: [String]

    package init(framework: String, staticMarkers: [String]) {
        self.framework = framework
        self.staticMarkers = staticMarkers
    }
}

/// An entry of a library's own Info.plist configuration that pins a host (``PinningLibrary/infoPlistEntry(pinning:in:now:)``):
/// how `app` reports the check of the host against it.
package struct InfoPlistPinEntry: Sendable, Equatable {
    /// The check's origin in the report.
    package var origin: AppPinCheck.Origin
    /// The check's note (`TSKConfiguration entry 'example.com'`).
    package var note: String
    /// The dotted key path its findings point at.
    package var keyPath: String
    /// What decided, for the findings' messages.
    package var subject: String

    /// An entry.
    /// - Parameters: see the properties.
    package init(origin: AppPinCheck.Origin, note: String, keyPath: String, subject: String) {
        self.origin = origin
        self.note = note
        self.keyPath = keyPath
        self.subject = subject
    }
}
