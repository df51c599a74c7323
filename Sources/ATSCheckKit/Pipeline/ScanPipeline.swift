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
        // http:// targets are judged by ATS from the plist alone: there is no TLS to probe.
        var plan: [PlannedEndpoint] = []
        var owner: [Int] = []  // plan index → target index (--all-addresses gives several per target)
        for (index, target) in targets.enumerated() where target.scheme != "http" {
            let planned = await ScanPlanner.plan([target], settings: settings)
            plan += planned
            owner += Array(repeating: index, count: planned.count)
        }
        let scanned = await BatchScanner(prober: prober, concurrency: settings.concurrency).scan(plan, progress: progress)
        var byTarget = [[ServerProfile]](repeating: [], count: targets.count)
        for (planIndex, profile) in scanned.enumerated() { byTarget[owner[planIndex]].append(profile) }
        return targets.enumerated().flatMap { index, target in
            target.scheme == "http" ? [Self.cleartextProfile(for: target)] : byTarget[index]
        }
    }

    /// The profile of an `http://` endpoint: nothing is scanned, ATS judges the scheme.
    public static func cleartextProfile(for target: Target, address: String? = nil, now: Date = Date()) -> ServerProfile {
        ServerProfile(
            target: target.hostPort, host: target.host, port: target.port, address: address, status: .completed,
            error: nil, handshakes: 0, scannedAt: now, scheme: "http")
    }

    /// Builds the report from profiles, judging each with `judge`.
    public static func report(
        _ profiles: [ServerProfile], findings: [Finding] = [], judge: (ServerProfile) -> ATSEvaluation
    ) -> ScanReport {
        ScanReport(endpoints: profiles.map { EndpointResult(profile: $0, ats: judge($0)) }, findings: findings)
    }
}
