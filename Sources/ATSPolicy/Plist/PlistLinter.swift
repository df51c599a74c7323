import Foundation
import TLSModel

/// Validates the `NSAppTransportSecurity` dictionary of a ``PlistDocument`` and gathers every
/// finding (keys, types, values, domain names, dead keys, App Review notes, pinning), following
/// Apple's parsing rules (`docs/apple-rules.md` §3 and §4).
///
/// Unlike a trust decision, a lint runs every rule and reports all it finds.
public struct PlistLinter {
    /// Which Apple OS releases to judge the plist for.
    public struct Options: Sendable, Equatable {
        /// The OS release (iOS numbering) whose rules apply, like `--os-version`: the newest atscheck knows by default.
        public var os: AppleOSVersion
        /// The oldest OS the app runs on (iOS numbering, any `x.y.z`). When nil, ``LowestOS/of(_:deploymentTarget:settings:)``
        /// decides (`MinimumOSVersion`, `IPHONEOS_DEPLOYMENT_TARGET`, a macOS app's `LSMinimumSystemVersion`), else
        /// ``os``.
        public var deploymentTarget: String?
        /// The build settings given (`--build-setting`, `--xcconfig`): the deployment target settings.
        public var settings: BuildSettings

        /// - Parameters:
        ///   - os: The OS release whose rules apply (default: ``AppleOSVersion/newest``).
        ///   - deploymentTarget: The oldest OS the app runs on, as written (`15.0`, `12.1.2`).
        ///   - settings: The build settings given.
        public init(os: AppleOSVersion = .newest, deploymentTarget: String? = nil, settings: BuildSettings = .init()) {
            self.os = os
            self.deploymentTarget = deploymentTarget
            self.settings = settings
        }

        /// Options from text: `osVersion` is read with ``AppleOSVersion/init(anyRelease:)``, and text that
        /// is not a version selects the newest rules.
        public init(osVersion: String, deploymentTarget: String? = nil) {
            self.init(os: AppleOSVersion(anyRelease: osVersion) ?? .newest, deploymentTarget: deploymentTarget)
        }
    }

    /// Lints a document.
    /// - Parameters:
    ///   - document: A parsed Info.plist or bare ATS dictionary.
    ///   - options: The OS releases to judge for.
    /// - Returns: Every finding, ordered by line (then key path and rule) so output is stable.
    public static func lint(_ document: PlistDocument, options: Options = Options()) -> [Finding] {
        let context = LintContext(document: document, options: options)
        for rule in PlistLintRules.all where context.ats != nil || !rule.needsATSDictionary {
            rule.check(context)
        }
        return context.findings.sorted(by: PlistLinter.order)
    }

    /// The order findings are reported in: by line, then key path, then rule (a finding without a line last).
    static func order(_ a: Finding, _ b: Finding) -> Bool {
        let la = a.line ?? Int.max
        let lb = b.line ?? Int.max
        if la != lb { return la < lb }
        if (a.keyPath ?? "") != (b.keyPath ?? "") { return (a.keyPath ?? "") < (b.keyPath ?? "") }
        return a.rule < b.rule
    }
}

/// What every rule reads and where it writes its findings.
final class LintContext {
    let document: PlistDocument
    let options: PlistLinter.Options
    /// The ATS dictionary, nil when absent or not a dictionary.
    let ats: [String: Any]?
    /// The OS whose rules apply.
    let rulesOS: AppleOSVersion
    /// The oldest OS the app runs on.
    let lowestOS: AppleOSVersion
    /// ``lowestOS`` for messages, as the deployment target spells it (`15`, `12.1.2`).
    let lowestOSText: String
    private(set) var findings: [Finding] = []

    /// The oldest release and which key said so; nil when nothing did.
    let lowest: LowestOS?

    init(document: PlistDocument, options: PlistLinter.Options) {
        self.document = document
        self.options = options
        self.ats = document.atsDictionary
        rulesOS = options.os
        lowest = LowestOS.of(document, deploymentTarget: options.deploymentTarget, settings: options.settings)
        lowestOS = lowest?.version ?? options.os
        lowestOSText = lowest.map { "\($0.text) (\($0.source.rawValue))" } ?? options.os.description
    }

    /// Reports a finding at a path relative to the ATS dictionary.
    func emit(_ rule: RuleID, _ severity: Finding.Severity, _ message: String, at path: [String]) {
        emit(
            rule, severity, message, filePath: document.atsPathInFile + path, keyPath: atsKeyPath(path),
            components: [ATSKey.appTransportSecurity] + path)
    }

    /// Reports a finding at a path from the file's root (for keys outside the ATS dictionary).
    /// - Parameter components: The key path's keys (default: `filePath`).
    func emit(
        _ rule: RuleID, _ severity: Finding.Severity, _ message: String, filePath: [String], keyPath: String,
        components: [String]? = nil
    ) {
        var finding = Finding(
            rule: rule, severity: severity, message: message, file: document.file,
            line: document.line(forKeyPath: filePath), keyPath: keyPath)
        finding.keyPathComponents = components ?? filePath
        findings.append(finding)
    }

    /// The configuration Apple reads from the ATS dictionary (the default when there is none).
    private(set) lazy var configuration: ATSConfiguration = ats.map(ATSConfiguration.init(dictionary:)) ?? .default

    /// What happens to `host` on the releases this lint judges (the app's oldest through the rules'), from the
    /// evaluation `--explain` prints: the one source of a message's "so this host gets …".
    func consequence(for host: String) -> String {
        PolicyExplainer.consequence(for: host, configuration: configuration, from: lowest?.version, through: rulesOS)
    }

    /// Adds a finding made elsewhere (the duplicate keys of the whole file).
    func add(_ more: [Finding]) { findings += more }

    /// The dotted key path of the JSON contract: `NSAppTransportSecurity.NSExceptionDomains.example.com`.
    func atsKeyPath(_ path: [String]) -> String { ATSKeyPath.path(path) }

    // MARK: Structure

    /// A global key's value, classified.
    func global(_ key: ATSKey) -> PlistNode? { ats?[key.name].map(PlistNode.init) }

    /// The `NSExceptionDomains` entries, sorted by name, when it is a dictionary.
    var exceptionDomains: [(name: String, value: Any)] { entries(of: .exceptionDomains) }

    /// The `NSPinnedDomains` entries, sorted by name, when it is a dictionary.
    var pinnedDomains: [(name: String, value: Any)] { entries(of: .pinnedDomains) }

    private func entries(of key: ATSKey) -> [(name: String, value: Any)] {
        guard let value = ats?[key.name], let dict = PlistNode.dictionary(value) else { return [] }
        return dict.keys.sorted().map { ($0, dict[$0]!) }
    }

    /// The key names the key name rules read, found once.
    private(set) lazy var keyNames = KeyNameScan(self)

    /// The domain keys of `NSExceptionDomains` and `NSPinnedDomains`, each read once for the domain key rules.
    private(set) lazy var domainEntries: [DomainEntry] = DomainEntry.all(in: self)

    /// The dictionary entries of `NSPinnedDomains`, each read once for the pinned domain rules.
    private(set) lazy var pinnedEntries: [PinnedEntry] = PinnedEntry.all(in: self)

    // MARK: Apple's reading of values (§3.4)

    /// How Apple reads a global boolean: `true` only for YES (boolean true or the number 1),
    /// `false` for NO or another number, nil when absent or of a type Apple ignores.
    func globalBool(_ key: ATSKey) -> Bool? {
        guard let value = global(key) else { return nil }
        return Self.appleBool(value, numbersAllowed: true)
    }

    /// Whether a global key counts as present for §4.1 (a boolean or a number, whatever its value).
    func globalPresent(_ key: ATSKey) -> Bool { globalBool(key) != nil }

    /// How Apple reads a per-domain boolean: nil when absent or of the wrong type (default used).
    func entryBool(_ entry: [String: Any], _ key: ATSKey) -> Bool? {
        guard let value = entry[key.name] else { return nil }
        return Self.appleBool(PlistNode(value), numbersAllowed: false)
    }

    static func appleBool(_ value: PlistNode, numbersAllowed: Bool) -> Bool? {
        switch value {
        case .boolean(let b): return b
        case .integer(let i) where numbersAllowed: return i == 1
        case .real(let d) where numbersAllowed: return d == 1
        default: return nil
        }
    }

    /// The valid `NSExceptionMinimumTLSVersion` of an entry, nil when absent or ignored.
    func entryMinimumTLS(_ entry: [String: Any]) -> String? {
        guard let s = entry[ATSKey.exceptionMinimumTLSVersion.name] as? String,
            ATSKey.validMinimumTLSVersions.contains(s)
        else { return nil }
        return s
    }
}
