import ATSPolicy
import Foundation
import TLSModel
import TLSProbe

/// `atscheck audit` end to end: load the plist, the endpoint list and the baseline; lint; plan; scan;
/// audit; apply the baseline. The CLI calls ``run(plistPath:endpointsPath:settings:os:baselinePath:now:prober:progress:)``
/// and renders ``AuditResult/report``, exiting with ``AuditResult/exitStatus``.
public enum AuditRun {
    /// Runs an audit.
    ///
    /// > Warning: Connects to every `https` endpoint of the list (`http://` endpoints are judged without a connection).
    ///
    /// - Parameters:
    ///   - plistPath: an Info.plist or bare `NSAppTransportSecurity` dictionary (XML, binary or OpenStep).
    ///   - endpointsPath: the endpoint list (text, `.yml`/`.yaml`, `.json`).
    ///   - settings: scan options; an entry's own `resolve`, `sni` and `caFile` win over `--resolve`, `--sni`,
    ///     and add to `--ca-file`. `allAddresses` is not applied to endpoint lists.
    ///   - os: the Apple OS release whose rules apply.
    ///   - baselinePath: waivers to apply, or nil.
    ///   - now: the time baseline expiry is judged at.
    ///   - prober: the OpenSSL prober by default; tests may pass another.
    ///   - progress: called after each scanned endpoint with (done, total, profile).
    /// - Returns: the audit, baseline applied.
    /// - Throws: ``InputFileError`` (exit 65) when an input file is unreadable or malformed; all three files are
    ///   read before anything is scanned.
    public static func run(
        plistPath: String, endpointsPath: String, settings: ScanSettings = ScanSettings(), os: AppleOSVersion = .newest,
        baselinePath: String? = nil, now: Date = Date(), prober: (any EndpointProber)? = nil,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async throws -> AuditResult {
        let document: PlistDocument
        do { document = try PlistDocument.load(path: plistPath) } catch let error as PlistError {
            throw InputFileError(file: error.file, line: error.line, reason: error.reason)
        }
        let list = try EndpointList.load(path: endpointsPath)
        let baseline = try baselinePath.map(Baseline.load(path:))
        let lint = PlistLinter.lint(document, options: PlistLinter.Options(osVersion: os.description))

        let plan = plan(list.entries, settings: settings)
        let scanner = BatchScanner(
            prober: prober ?? TLSProber(perHostLimit: settings.perHost), concurrency: settings.concurrency)
        let scanned = await scanner.scan(plan.map(\.planned), progress: progress)
        var profiles = list.entries.map { Auditor.placeholderProfile(for: $0, now: settings.now ?? now) }
        for (slot, profile) in zip(plan.map(\.index), scanned) { profiles[slot] = profile }

        let endpoints = zip(list.entries, profiles).map { Auditor.Endpoint(entry: $0, profile: $1) }
        var result = Auditor(os: os).audit(document: document, endpoints: endpoints, findings: lint + list.findings)
        if let baseline { result.report = baseline.apply(to: result.report, now: now).0 }
        return result
    }

    /// Probe requests for the `https` entries, with the index of each in the list.
    public static func plan(_ entries: [EndpointEntry], settings: ScanSettings) -> [(index: Int, planned: PlannedEndpoint)] {
        entries.enumerated().compactMap { index, entry in
            guard !entry.isHTTP else { return nil }
            let request = settings.request(
                for: entry.target, connectAddress: entry.resolve, sni: entry.sni, extraCAFiles: entry.caFile.map { [$0] } ?? [])
            return (index, PlannedEndpoint(target: entry.target, request: request, source: entry.source))
        }
    }
}
