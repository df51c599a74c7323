import Foundation
import Judging
import TLSModel
import TLSProbe

/// The one pipeline behind `scan`, `diagnose` and `audit`: plan → probe → judge → report model.
///
/// It plans (`--resolve`, `--sni`, `--all-addresses` with every look-up at once, each bounded by the
/// timeout), probes with bounded concurrency (``BatchScanner``), judges (``PolicyJudge``) and hands a
/// report model (``ScanReport``, ``Diagnosis``, ``AuditResult``) to the renderers.
public struct ScanPipeline: Sendable {
    /// How to scan.
    public var settings: ScanSettings
    /// Who turns a request into a profile.
    public var prober: any EndpointProber
    /// Who looks names up for `--all-addresses`.
    public var resolver: any AddressResolver

    /// - Parameters:
    ///   - prober: the OpenSSL prober by default; tests pass a fake to check orchestration.
    ///   - resolver: the prober when it can resolve, else the OpenSSL prober's resolver (system DNS on its
    ///     probe threads).
    public init(
        settings: ScanSettings = ScanSettings(), prober: (any EndpointProber)? = nil,
        resolver: (any AddressResolver)? = nil
    ) {
        self.settings = settings
        let system = settings.makeProber()
        self.prober = prober ?? system
        self.resolver = resolver ?? (prober as? any AddressResolver) ?? system
    }

    /// Plans the targets: one request per target, per address with `--all-addresses`.
    public func plan(_ targets: [Target]) async -> [PlannedEndpoint] {
        await ScanPlanner.plan(targets, settings: settings, resolver: resolver)
    }

    /// Plans and probes targets and returns their profiles, in target order (several for one target
    /// with `--all-addresses`). `http://` targets are not probed: ATS judges them by their scheme.
    ///
    /// > Warning: Connects to every `https` target.
    /// - Parameter progress: called after each distinct probe finishes with (done, total, profile).
    public func probe(
        _ targets: [Target], progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [ServerProfile] {
        let batch = await ScanPlanner.batch(targets: targets, settings: settings, resolver: resolver)
        let byTarget = await probe(batch, progress: progress)
        return targets.enumerated().flatMap { index, target in
            target.scheme == "http" ? [ServerProfile.cleartext(for: target)] : byTarget[index]
        }
    }

    /// Probes a planned batch with bounded concurrency (``BatchScanner``): the profiles of each slot.
    /// - Parameter prober: replaces the pipeline's prober (the streaming wrapper of `scan --format jsonl`).
    func probe(
        _ batch: ProbeBatch, prober: (any EndpointProber)? = nil,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [[ServerProfile]] {
        let scanner = BatchScanner(
            prober: prober ?? self.prober, concurrency: settings.concurrency, grace: settings.cancellationGrace)
        return batch.bySlot(await scanner.scan(batch.plan, progress: progress))
    }

    /// Plans, probes and judges targets: the report of `atscheck scan`.
    ///
    /// > Warning: Connects to every `https` target.
    public func scan(
        _ targets: [Target], judge: PolicyJudge, progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> ScanReport {
        Self.report(await probe(targets, progress: progress), judge: judge)
            .addingExpiryWarnings(days: settings.expiryWarningDays, now: settings.now ?? Date())
            .addingQuantumRequirement(settings.requireQuantumSecure)
            .markingPartial(ifCancelled: settings)
    }

    /// Judges profiles (scanned now or saved earlier) into a report: the ATS verdicts, then `findings` and the
    /// findings of the judge's pins (``PolicyJudge/pins``) in endpoint order.
    public static func report(_ profiles: [ServerProfile], judge: PolicyJudge, findings: [Finding] = []) -> ScanReport {
        var report = report(profiles, findings: findings) { judge.judge($0) }
        guard judge.pins != nil else { return report }
        for index in report.endpoints.indices { report.findings += judge.judgePins(of: &report.endpoints[index]) }
        report.summary = ReportSummary(endpoints: report.endpoints)
        return report
    }

    /// Builds the report from profiles, judging each with `judge`.
    public static func report(
        _ profiles: [ServerProfile], findings: [Finding] = [], judge: (ServerProfile) -> ATSEvaluation
    ) -> ScanReport {
        ScanReport(endpoints: profiles.map { EndpointResult(profile: $0, ats: judge($0)) }, findings: findings)
    }

}

extension ScanReport {
    /// The profiles of the report's endpoints, in order (what `--save-profile` writes).
    public var profiles: [ServerProfile] { endpoints.map(\.profile) }

    /// The report marked ``partial`` when the current task is cancelled (the scan was interrupted), counting its
    /// `cancelled` endpoints, or `notScanned` when they were streamed; else the report unchanged.
    func markingPartial(ifCancelled settings: ScanSettings, notScanned: Int? = nil) -> ScanReport {
        guard Task.isCancelled else { return self }
        var marked = self
        let grace = settings.cancellationGrace.components
        marked.partial = PartialScan(
            notScanned: notScanned ?? endpoints.filter { $0.profile.status == .cancelled }.count,
            graceSeconds: Double(grace.seconds) + Double(grace.attoseconds) / 1e18)
        return marked
    }
}
