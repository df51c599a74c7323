import ATSPolicy
import Foundation
import Judging
import TLSModel

extension ScanPipeline {
    /// `atscheck audit` end to end: load the plist, the endpoint list, the pin material its entries name and the
    /// baseline; lint; plan; probe; audit; check pins (``AuditPins``: `NSPinnedDomains` and the entries' pin
    /// checks against the live paths); apply the baseline. The CLI renders the audit's report document
    /// (``AuditResult/section(judgedUnderDefaultPolicy:)``) and exits with ``AuditResult/exitStatus``.
    ///
    /// > Warning: Connects to every `https` endpoint of the list (`http://` endpoints are judged without a connection).
    ///
    /// - Parameters:
    ///   - plistPath: an Info.plist or bare `NSAppTransportSecurity` dictionary (XML, binary or OpenStep); nil:
    ///     every endpoint is judged under the default ATS policy (no exceptions, nothing to lint).
    ///   - endpointsPath: the endpoint list (text, `.yml`/`.yaml`, `.json`). An entry's own `resolve`, `sni`
    ///     and `caFile` win over `--resolve`, `--sni`, and add to `--ca-file`; `allAddresses` is not applied.
    ///   - client: the Apple OS release whose rules apply, and the client class the endpoints are used from (web
    ///     views and media have their own exemptions).
    ///   - baselinePath: waivers to apply, or nil.
    ///   - now: the time baseline expiry is judged at.
    ///   - shard: audit only the entries of this shard (``Shard``); the result carries what `atscheck merge` needs
    ///     to rebuild the whole audit (``AuditResult/shardInputs``).
    ///   - progress: called after each scanned endpoint with (done, total, profile).
    /// - Returns: the audit, baseline applied.
    /// - Throws: ``InputFileError`` (exit 65) when an input file is unreadable or malformed; the plist, the list,
    ///   the baseline, every CA file and every pin file are read before anything is scanned.
    ///   ``UnusedResolveRules`` when a `--resolve` rule matches no entry of the list (nothing is scanned).
    public func audit(
        plistPath: String?, endpointsPath: String, for client: ATSClient = .newest,
        baselinePath: String? = nil, now: Date = Date(), shard: Shard? = nil,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async throws -> AuditResult {
        var inputs = try AuditInputs.load(
            plistPath: plistPath, endpointsPath: endpointsPath, baselinePath: baselinePath, settings: settings,
            os: client.os, now: now)
        let unused = settings.unusedResolveRules(targets: [], entries: inputs.list.entries)
        if !unused.isEmpty { throw UnusedResolveRules(unused) }
        let total = inputs.list.entries.count
        // A shard audits its own entries: they are scanned, judged and pin-checked as in a whole run; the
        // exception debt over the whole list is `atscheck merge`'s, from every shard's endpoints.
        let positions = inputs.list.entries.indices.filter { shard?.contains(inputs.list.entries[$0]) ?? true }
        if shard != nil { try inputs.restrict(to: positions, settings: settings, now: now) }

        let profiles = await auditProbe(inputs.list.entries, now: now, progress: progress).map(\.profile)
        var result = inputs.finish(profiles: profiles, settings: settings, for: client, now: now)
        result.report = result.report.markingPartial(ifCancelled: settings)
        if let shard {
            result.report.shard = ReportShard(
                index: shard.index, count: shard.count, total: total, selected: positions.count, positions: positions)
            result.shardInputs = try AuditShardInputs(
                plist: plistPath, endpoints: endpointsPath, baseline: baselinePath, for: client, settings: settings,
                now: now)
        }
        return result
    }
}

extension ScanPipeline {
    /// The probe step of an audit: every `https` entry scanned once (with its own `resolve`, `sni`, `caFile`),
    /// every `http://` entry given a placeholder profile; in entry order. `atscheck app` judges the same
    /// endpoints under several OS eras from this one probe.
    ///
    /// > Warning: Connects to every `https` entry.
    func auditProbe(
        _ entries: [EndpointEntry], now: Date, progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [Auditor.Endpoint] {
        let batch = await ScanPlanner.batch(targets: [], entries: entries, settings: settings)
        let bySlot = await probe(batch, progress: progress)
        return zip(entries, bySlot).map { entry, profiles in
            Auditor.Endpoint(
                entry: entry,
                profile: profiles.first ?? Auditor.placeholderProfile(for: entry, now: settings.now ?? now))
        }
    }
}

/// `atscheck audit` as one call: ``ScanPipeline/audit(plistPath:endpointsPath:for:baselinePath:now:shard:progress:)``
/// on a pipeline built from `settings` and `prober`.
extension ScanPipeline {
    /// The name of the empty document an audit without a plist judges under.
    public static let defaultPolicyName = "(default ATS policy)"

    /// An Info.plist without `NSAppTransportSecurity`: the default ATS policy.
    static var defaultPolicyDocument: PlistDocument {
        // A constant, well-formed plist: parsing it cannot fail.
        try! PlistDocument.parse(data: Data("<plist version=\"1.0\"><dict/></plist>".utf8), file: defaultPolicyName)
    }
}

public enum AuditRun {
    /// Runs an audit.
    ///
    /// > Warning: Connects to every `https` endpoint of the list.
    /// - Parameter prober: the OpenSSL prober by default; tests may pass another.
    /// - Throws: ``InputFileError`` (exit 65) when an input file is unreadable or malformed.
    public static func run(
        plistPath: String?, endpointsPath: String, settings: ScanSettings = ScanSettings(),
        for client: ATSClient = .newest,
        baselinePath: String? = nil, now: Date = Date(), prober: (any EndpointProber)? = nil,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async throws -> AuditResult {
        try await ScanPipeline(settings: settings, prober: prober).audit(
            plistPath: plistPath, endpointsPath: endpointsPath, for: client, baselinePath: baselinePath, now: now,
            progress: progress)
    }
}
