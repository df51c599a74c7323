import ATSPolicy
import Foundation
import Judging
import TLSModel

/// Everything an audit reads before it scans, and the judging after it: shared by `atscheck audit` and by
/// `atscheck merge` of audit shards, which rebuilds the whole audit from the shards' profiles with the very same
/// steps (so the merged report is the single run's).
struct AuditInputs {
    var document: PlistDocument
    /// Every build configuration of a preprocessed plist (``document`` is the first); one document otherwise.
    var configurations: [PlistDocument]
    var list: EndpointList
    var baseline: Baseline?
    var pins: AuditPins
    var lint: [Finding]

    /// Reads the plist (or the default policy), the endpoint list, the baseline, every CA file and every pin file.
    /// - Throws: ``InputFileError`` (exit 65) when one is unreadable or malformed, or when TrustKit would refuse
    ///   the plist's `TSKConfiguration` or the TrustKit pin material of an entry (``TrustKitLaunchFailure``: the
    ///   app would crash at launch, so nothing is audited).
    static func load(
        plistPath: String?, endpointsPath: String, baselinePath: String?, settings: ScanSettings, os: AppleOSVersion,
        now: Date
    ) throws -> AuditInputs {
        let source: PlistSource?
        do {
            source = try plistPath.map { try PlistSource.load(path: $0, options: settings.plistReading) }
        } catch let error as PlistError {
            throw InputFileError(file: error.file, line: error.line, reason: error.reason)
        }
        // Pins and TrustKit's launch check read the first configuration (every name undefined, unless --define
        // chose one): see docs/plist-rules.md, "Preprocessed Info.plists".
        let document = source?.document ?? ScanPipeline.defaultPolicyDocument
        // An Info.plist's TSKConfiguration is loaded by TrustKit itself at launch.
        if let error = TrustKitLaunchFailure.error(TrustKitLaunchFailure.inPlist(document)) { throw error }
        let list = try EndpointList.load(path: endpointsPath)
        let baseline = try baselinePath.map(Baseline.load(path:))
        try PEMFile.validate(settings.caFiles + list.entries.compactMap(\.caFile))
        let pins = try AuditPins.prepare(
            document: document, entries: list.entries, settings: settings, now: settings.now ?? now)
        let lint =
            source.map {
                PlistLinter.lint(
                    $0, options: PlistLinter.Options(os: os, settings: settings.plistReading.buildSettings))
            } ?? []
        return AuditInputs(
            document: document, configurations: source?.configurations ?? [document], list: list, baseline: baseline,
            pins: pins, lint: lint)
    }

    /// Keeps only the entries at `positions` (a shard), with their pin checks.
    mutating func restrict(to positions: [Int], settings: ScanSettings, now: Date) throws {
        list.entries = positions.map { list.entries[$0] }
        pins = try AuditPins.prepare(
            document: document, entries: list.entries, settings: settings, now: settings.now ?? now)
    }

    /// Judges the entries with their profiles (one per entry, in list order): the audit, expiry warnings, pin
    /// checks, then the baseline.
    func finish(profiles: [ServerProfile], settings: ScanSettings, for client: ATSClient, now: Date) -> AuditResult {
        let endpoints = zip(list.entries, profiles).map { Auditor.Endpoint(entry: $0, profile: $1) }
        var result = Auditor(for: client).audit(
            configurations: configurations, endpoints: endpoints, findings: lint + list.findings)
        result.report = result.report.addingExpiryWarnings(days: settings.expiryWarningDays, now: settings.now ?? now)
            .addingQuantumRequirement(settings.requireQuantumSecure)
        let pinOutcome = pins.evaluate(endpoints, document: document)
        pinOutcome.failRejected(in: &result.report)
        result.report.findings += pinOutcome.findings
        result.pins = pinOutcome.checks
        if let baseline { result.report = baseline.apply(to: result.report, now: now).0 }
        return result
    }
}
