import AppBundle
import Foundation
import Judging
import Pinning
import TLSModel

/// The pin checks of `atscheck app` beyond the audit's (`NSPinnedDomains`, endpoint-list entries):
/// `TSKConfiguration` against the hosts it covers, and the certificate files a linked AFNetworking or Alamofire
/// loads, against every `https` endpoint, in every mode the bundle makes plausible (docs/pinning-rules.md §1, §4).
///
/// The mode and the sessions that pin are in code the bundle does not show: without `--library`/`--mode` a
/// rejection is a warning that names the modes; with them it is an error, as in `atscheck audit`.
struct AppLivePins {
    var offline: AppOfflineResult
    var scope: AppPinScope
    var caFiles: [String]
    var useSystemStore: Bool
    var trustSource: TrustStoreSource
    var now: Date

    /// One pin set a library would load, with the modes to try.
    struct BundledSet {
        var library: any PinningLibrary
        var pins: LoadedPins
        var policies: [(mode: String, policy: PinPolicy)]
        var note: String?
        /// Where findings about the set point (the first certificate file, else the framework).
        var anchor: String
    }

    /// Evaluates every check on the probed endpoints.
    func evaluate(_ endpoints: [Auditor.Endpoint]) -> (findings: [Finding], checks: [AppPinCheck]) {
        let live = endpoints.filter { !$0.entry.isHTTP }
        var findings: [Finding] = []
        var checks: [AppPinCheck] = []
        let (plistFindings, plistChecks) = infoPlistPins(live)
        findings += plistFindings
        checks += plistChecks
        for set in bundledSets() {
            let (f, c) = bundled(set, live)
            findings += f
            checks += c
        }
        return (findings, checks)
    }

    // MARK: Info.plist configurations

    /// Each library's own Info.plist configuration (``PinningLibrary/infoPlistEntry(pinning:in:now:)``) against the
    /// hosts it pins, with the library's default options; a library whose configuration its checker refuses
    /// checks nothing.
    func infoPlistPins(_ endpoints: [Auditor.Endpoint]) -> ([Finding], [AppPinCheck]) {
        let material = offline.infoPlistPins
        var findings: [Finding] = []
        var checks: [AppPinCheck] = []
        for library in PinningLibraries.all {
            let pinned = endpoints.compactMap { endpoint in
                library.infoPlistEntry(pinning: endpoint.entry.target.host, in: material.appPins, now: now).map {
                    (endpoint, $0)
                }
            }
            guard !pinned.isEmpty,
                case .success(let policy) = library.policy(PinOptionValues(), spelling: .commandLine),
                var checker = try? PinChecker(
                    policy: policy, pins: material, pinsPath: offline.infoPlist, caFiles: caFiles,
                    useSystemStore: useSystemStore, now: now)
            else { continue }
            checker.trustSource = trustSource
            for (endpoint, entry) in pinned {
                guard let result = AuditPins.result(endpoint, checker: checker) else { continue }
                let check = AppPinCheck(
                    origin: entry.origin, endpoint: endpoint.entry.target.hostPort, library: library.id, mode: nil,
                    assumed: false, pinFiles: [offline.infoPlist], note: entry.note, result: result)
                checks.append(check)
                findings += AppPinFindings.findings(
                    check, at: SourceLocation(file: offline.infoPlist), keyPath: entry.keyPath, subject: entry.subject)
            }
        }
        return (findings, checks)
    }

    // MARK: Bundled certificates

    /// The pin sets the linked libraries load (or the one `--library` names), with their modes: for each registered
    /// library that loads certificate files (``PinningLibrary/bundledModes``), the mode named, else every
    /// plausible one.
    func bundledSets() -> [BundledSet] {
        var sets: [BundledSet] = []
        for library in AppPinScope.loaders {
            guard let modes = library.bundledModes else { continue }
            let linked = offline.libraries.first { $0.name == library.id }
            let otherNamed = AppPinScope.loaders.contains { $0.id != library.id && scope.namesMode(of: $0) }
            guard scope.library == library.id || (scope.library == nil && linked != nil && !otherNamed) else {
                continue
            }
            let (files, note) = bundledFiles(library, linked: linked)
            var values = scope.values
            for (key, text) in library.linkedValues(majorVersion: linked?.majorVersion).text where values[key] == nil {
                values[key] = text  // the linked framework's
            }
            let tried = scope.values[modes.key].map { [$0] } ?? modes.plausible
            let policies = tried.map { mode -> (mode: String, policy: PinPolicy) in
                var options = values
                options[modes.key] = mode
                return (mode, PinPolicyOptions(library: library.id, values: options).policy)
            }
            // A library that can read its own framework bundle points findings at its framework.
            let readsFramework = library.bundleLookups.contains { $0.folder == .ownFramework }
            let frameworkAnchor = readsFramework ? linked.flatMap(Self.frameworkPath) : nil
            sets.append(
                BundledSet(
                    library: library, pins: Self.material(files), policies: policies, note: note,
                    anchor: files.first?.file ?? frameworkAnchor ?? offline.infoPlist))
        }
        return sets
    }

    /// The certificate files `library` loads by default (its ``PinningLibrary/bundleLookup(linkedAsFramework:majorVersion:)``,
    /// docs/pinning-rules.md §1.1, §4), and why when it is not the app bundle's top level, or that it loads none.
    func bundledFiles(_ library: any PinningLibrary, linked: LinkedLibrary?) -> ([AppPinFile], String?) {
        let lookup =
            linked?.bundleLookup
            ?? library.bundleLookup(linkedAsFramework: false, majorVersion: nil)
        guard let lookup else {
            return ([], "not supported: atscheck does not model which certificate files \(library.name) loads")
        }
        let files = offline.certificates.filter { $0.lookups.contains(lookup) }
        guard lookup.folder == .ownFramework, let linked else { return (files, nil) }
        let mainLookups = library.bundleLookups.filter { $0.folder == .mainBundle }
        let appLevel = offline.certificates.filter { !mainLookups.filter($0.lookups.contains).isEmpty }.count
        let ext = lookup.extensions.first.map { ".\($0)" } ?? "certificate"
        return (
            files,
            "\(library.name) \(linked.version ?? "") is a dynamic framework: it loads pins from its own bundle "
                + "(\(files.count) \(ext) file(s) there); the \(appLevel) \(ext) file(s) at the app's top level are "
                + "never used"
        )
    }

    static func frameworkPath(_ library: LinkedLibrary) -> String? {
        if case .framework(let path) = library.linkage { return path }
        return nil
    }

    /// The certificate files as pin material; PEM bytes are kept but marked (the libraries drop or crash on them).
    static func material(_ files: [AppPinFile]) -> LoadedPins {
        var pins = LoadedPins()
        for file in files {
            pins.files.append(file.file)
            if let facts = file.facts {
                pins.certificates.append(
                    PinnedCertificateFile(file: file.file, facts: facts, pemInDERFile: file.encoding == .pem))
            }
        }
        return pins
    }

    func bundled(_ set: BundledSet, _ endpoints: [Auditor.Endpoint]) -> ([Finding], [AppPinCheck]) {
        let library = set.library.id
        let name = set.library.name
        var checks: [AppPinCheck] = []
        var findings: [Finding] = []
        let empty = set.pins.bundledCertificates.isEmpty
        for endpoint in endpoints {
            var hostChecks: [AppPinCheck] = []
            for (mode, policy) in set.policies {
                guard
                    var checker = try? PinChecker(
                        policy: policy, pins: set.pins, pinsPath: set.anchor, caFiles: caFiles,
                        useSystemStore: useSystemStore, now: now)
                else { continue }
                checker.trustSource = trustSource
                guard let result = AuditPins.result(endpoint, checker: checker) else { continue }
                hostChecks.append(
                    AppPinCheck(
                        origin: .bundledCertificates, endpoint: endpoint.entry.target.hostPort, library: library,
                        mode: mode,
                        assumed: !scope.isNamed, pinFiles: set.pins.files, note: set.note, result: result))
            }
            checks += hostChecks
            if !empty {
                findings += AppPinFindings.host(hostChecks, library: name, anchor: set.anchor, named: scope.isNamed)
            }
        }
        if let finding = AppPinFindings.setWide(
            checks, library: name, modes: set.policies.map(\.mode), files: set.pins.files, note: set.note,
            empty: empty, named: scope.isNamed, anchor: set.anchor)
        {
            findings.append(finding)
        }
        return (findings, checks)
    }
}
