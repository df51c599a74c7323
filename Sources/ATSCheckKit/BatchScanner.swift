import Foundation
import TLSModel

/// Scans many endpoints with bounded concurrency; every endpoint gets a profile, whatever
/// happens to the others.
package struct BatchScanner: Sendable {
    package var prober: any EndpointProber
    package var concurrency: Int

    package init(prober: any EndpointProber, concurrency: Int) {
        self.prober = prober
        self.concurrency = max(1, concurrency)
    }

    /// Scans every planned endpoint, at most `concurrency` at once, and returns profiles in plan order.
    /// Endpoints whose requests are identical (the same host and port under two URL paths, say) are
    /// probed once and share the profile.
    /// - Parameter progress: called after each distinct probe finishes with (done, total, profile).
    package func scan(
        _ plan: [PlannedEndpoint], progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> [ServerProfile] {
        var distinct: [ProbeRequest] = []
        var slot: [ProbeRequest: Int] = [:]
        for planned in plan where slot[Self.identity(planned.request)] == nil {
            slot[Self.identity(planned.request)] = distinct.count
            distinct.append(planned.request)
        }
        var results = [ServerProfile?](repeating: nil, count: distinct.count)
        var done = 0
        await withTaskGroup(of: (Int, ServerProfile).self) { group in
            var next = 0
            func launch() {
                guard next < distinct.count else { return }
                let index = next
                let request = distinct[index]
                next += 1
                group.addTask { (index, await prober.scan(request)) }
            }
            for _ in 0..<min(concurrency, distinct.count) { launch() }
            for await (index, profile) in group {
                results[index] = profile
                done += 1
                progress?(done, distinct.count, profile)
                launch()
            }
        }
        return plan.compactMap { slot[Self.identity($0.request)].flatMap { results[$0] } }
    }

    /// What a probe depends on: the URL's path and the text the user wrote do not change it.
    static func identity(_ request: ProbeRequest) -> ProbeRequest {
        var key = request
        key.target = Target(scheme: request.target.scheme, host: request.target.host, port: request.target.port)
        return key
    }
}
