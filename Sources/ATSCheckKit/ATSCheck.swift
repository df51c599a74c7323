import Foundation
import TLSModel
import TLSProbe

/// The library facade: plan → probe → profile → evaluate → report.
public struct ATSCheck: Sendable {
    public var settings: ScanSettings
    public var prober: any EndpointProber

    /// - Parameter prober: the OpenSSL prober by default; tests pass a fake to check orchestration.
    public init(settings: ScanSettings = ScanSettings(), prober: (any EndpointProber)? = nil) {
        self.settings = settings
        self.prober = prober ?? TLSProber(perHostLimit: settings.perHost)
    }

    /// Scans targets and returns their profiles, in order.
    ///
    /// > Warning: Connects to every target.
    public func scan(
        _ targets: [Target], progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [ServerProfile] {
        let plan = await ScanPlanner.plan(targets, settings: settings)
        return await BatchScanner(prober: prober, concurrency: settings.concurrency).scan(plan, progress: progress)
    }

    /// Builds the report from profiles, judging each with `judge`.
    public static func report(
        _ profiles: [ServerProfile], findings: [Finding] = [], judge: (ServerProfile) -> ATSEvaluation
    ) -> ScanReport {
        ScanReport(endpoints: profiles.map { EndpointResult(profile: $0, ats: judge($0)) }, findings: findings)
    }
}
