import ATSPolicy
import AppBundle
import Foundation
import Judging
import TLSModel

/// `atscheck app PATH` (live): the offline audit of the bundle, then its endpoints (harvested, or an
/// `--endpoints` list that replaces the harvest) probed once each and judged under the bundle's own ATS
/// dictionary for every OS era the build supports, the exception debt as `audit` reports it, and the pins —
/// `NSPinnedDomains`, `TSKConfiguration` and the bundled certificates of AFNetworking/Alamofire — against the
/// live paths.
public enum AppLiveAudit {
    /// Audits a build against its live endpoints.
    ///
    /// > Warning: Connects to every `https` endpoint (`http://` endpoints are judged without a connection).
    ///
    /// - Parameters:
    ///   - path: An `.ipa`, `.app` folder or `.xcarchive`.
    ///   - endpointsPath: An endpoint list (the `audit` formats) that replaces the harvested endpoints; nil: the harvest.
    ///   - settings: Probe settings (`scope` is `.atsOnly` for the CLI's default).
    ///   - client: The client class the endpoints are used from.
    ///   - pinScope: Which bundled-certificate pinning to evaluate (default: every plausible mode).
    ///   - limits: The archive caps.
    ///   - filter: What the harvester leaves out.
    ///   - now: The evaluation time.
    ///   - prober: The OpenSSL prober by default; tests may pass another.
    ///   - progress: Called after each scanned endpoint with (done, total, profile).
    /// - Returns: The facts, verdicts per era, exception debt, pin checks and one report.
    /// - Throws: ``InputFileError`` (exit 65) when the bundle, the list or a CA file is unreadable or refused, or when
    ///   the bundle links TrustKit and TrustKit refuses its `TSKConfiguration` (nothing is scanned).
    public static func run(
        path: String, endpointsPath: String? = nil, settings: ScanSettings = ScanSettings(),
        client: ClientKind = .urlSession,
        pinScope: AppPinScope = AppPinScope(), limits: ArchiveLimits = .default, filter: HarvestFilter = .default,
        now: Date = Date(), prober: (any EndpointProber)? = nil,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async throws -> AppLiveResult {
        let contents = try AppOfflineAudit.open(path: path, limits: limits)
        try AppOfflineAudit.checkLaunchRefusals(contents)
        let offline = AppOfflineAudit.result(of: contents, filter: filter)
        let document = contents.infoPlist
        var entries = harvestedEntries(offline.endpoints)
        var listFindings: [Finding] = []
        if let endpointsPath {
            let list = try EndpointList.load(path: endpointsPath)
            entries = list.entries
            listFindings = list.findings
        }
        try PEMFile.validate(settings.caFiles + entries.compactMap(\.caFile))
        let evaluationTime = settings.now ?? now
        let auditPins = try AuditPins.prepare(
            document: document, entries: entries, settings: settings, now: evaluationTime)

        let endpoints = await ScanPipeline(settings: settings, prober: prober).auditProbe(
            entries, now: now, progress: progress)

        let eras = offline.eras
        let pinOutcome = auditPins.evaluate(endpoints, document: document)
        let perEra = eras.map { os in
            var audit = Auditor(for: ATSClient(os: os, kind: client)).audit(document: document, endpoints: endpoints)
            // NSPinnedDomains is read from iOS 14 on: there its rejection fails the endpoint.
            if os.has(.pinnedDomains) { pinOutcome.failRejected(in: &audit.report) }
            return (os, audit)
        }
        let judged = merge(perEra, endpoints: endpoints, eras: eras)
        let (pinFindings, pinChecks) = (pinOutcome.findings, pinOutcome.checks)
        let appPins = AppLivePins(
            offline: offline, scope: pinScope, caFiles: settings.caFiles, useSystemStore: settings.useSystemTrustStore,
            trustSource: settings.trustSource,
            now: evaluationTime
        ).evaluate(endpoints)

        let findings = offline.report.findings + listFindings + judged.findings + pinFindings + appPins.findings
        let report = ScanReport(endpoints: judged.results, findings: findings)
            .addingExpiryWarnings(days: settings.expiryWarningDays, now: evaluationTime)
            .addingQuantumRequirement(settings.requireQuantumSecure)
        return AppLiveResult(
            offline: offline, endpointSource: endpointsPath ?? "harvested", eras: eras, endpoints: judged.eras,
            exceptionDebt: AppEras.merge(perEra.map { ($0.0, $0.1.exceptionDebt) }),
            pins: pinChecks.map(AppPinCheck.init) + appPins.checks, report: report)
    }

    /// The harvested endpoints as endpoint-list entries, each located at the first place it was found.
    ///
    /// A bare host name (an `NSExceptionDomains` key, a string in a plist) whose host is also harvested as a URL
    /// with an explicit port names that server without its port: it is not probed again on 443.
    static func harvestedEntries(_ harvested: [HarvestedEndpoint]) -> [EndpointEntry] {
        let withPorts = Set(harvested.filter { $0.kind != .host && $0.port != nil }.map(\.host))
        return harvested.compactMap { endpoint in
            if endpoint.kind == .host, endpoint.port == nil, withPorts.contains(endpoint.host) { return nil }
            guard let target = try? Target(parsing: endpoint.target) else { return nil }
            let first = endpoint.sources.first
            return EndpointEntry(
                target: target, source: SourceLocation(file: first?.file ?? "(harvested)", line: first?.line))
        }
    }

    /// The verdicts of every era folded into one report: each endpoint with the evaluation of the first era it
    /// fails on (else the newest era's) and a note of its eras; the findings once each, with their eras.
    static func merge(
        _ perEra: [(AppleOSVersion, AuditResult)], endpoints: [Auditor.Endpoint], eras: [AppleOSVersion]
    ) -> (results: [EndpointResult], eras: [AppEndpointEras], findings: [Finding]) {
        var results: [EndpointResult] = []
        var summaries: [AppEndpointEras] = []
        for (index, endpoint) in endpoints.enumerated() {
            let evaluations = perEra.map { ($0.0, $0.1.report.endpoints[index].ats) }
            let failing = evaluations.first { $0.1.verdict == .fail || $0.1.verdict == .ambiguous }
            let chosen = failing ?? evaluations.last!
            var result = perEra.first { $0.0 == chosen.0 }!.1.report.endpoints[index]
            let label =
                endpoint.entry.isHTTP ? "http://\(endpoint.entry.target.hostPort)" : endpoint.entry.target.hostPort
            let judged = endpoint.entry.isHTTP || endpoint.profile.status == .completed
            let summary =
                judged
                ? AppEras.summary(evaluations.map { ($0.0, $0.1.verdict) }, eras: eras)
                : "not judged (\(endpoint.profile.error ?? endpoint.profile.status.rawValue))"
            if judged {
                result.ats.notes.append("OS eras of this build: \(summary); shown: iOS \(AppEras.label(chosen.0))")
            }
            results.append(result)
            summaries.append(
                AppEndpointEras(
                    endpoint: label, source: endpoint.entry.source, status: endpoint.profile.status,
                    eras: evaluations.map { os, ats in
                        AppEndpointEras.EraVerdict(
                            os: AppEras.label(os), verdict: ats.verdict, reason: ats.violations.first?.message)
                    },
                    summary: summary))
        }
        let findings = AppEras.merge(perEra.map { ($0.0, $0.1.report.findings) }, eras: eras)
        return (results, summaries, findings)
    }
}
