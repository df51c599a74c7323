import Foundation
import TLSModel
import TLSProbe

/// Scans many endpoints with bounded concurrency; every endpoint gets a profile, whatever
/// happens to the others.
public struct BatchScanner: Sendable {
    public var prober: any EndpointProber
    public var concurrency: Int

    public init(prober: any EndpointProber, concurrency: Int) {
        self.prober = prober
        self.concurrency = max(1, concurrency)
    }

    /// Scans every planned endpoint, at most `concurrency` at once, and returns profiles in plan order.
    /// - Parameter progress: called after each endpoint finishes with (done, total, profile).
    public func scan(
        _ plan: [PlannedEndpoint], progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [ServerProfile] {
        var results = [ServerProfile?](repeating: nil, count: plan.count)
        var done = 0
        await withTaskGroup(of: (Int, ServerProfile).self) { group in
            var next = 0
            func launch() {
                guard next < plan.count else { return }
                let index = next
                let request = plan[index].request
                next += 1
                group.addTask { (index, await prober.scan(request)) }
            }
            for _ in 0..<min(concurrency, plan.count) { launch() }
            for await (index, profile) in group {
                results[index] = profile
                done += 1
                progress?(done, plan.count, profile)
                launch()
            }
        }
        return results.compactMap { $0 }
    }
}
