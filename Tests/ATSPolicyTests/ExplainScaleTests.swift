import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// `--explain` is linear in the number of exception domains (issue 32: it was quadratic; 100,000 domains ran for
/// days). Bounded by counted work, not time: policies resolved and exception entries examined.
@Suite("PolicyExplainer scale")
struct ExplainScaleTests {
    /// A configuration of `count` entries like scripts/plist-bench/explain_scale.py writes: names with and without
    /// subdomains, insecure HTTP, TLS 1.0, forward secrecy off, IP and CIDR keys.
    static func configuration(_ count: Int) -> ATSConfiguration {
        var domains: [String: ExceptionDomain] = [:]
        for i in 0..<count {
            let key: String
            switch i % 20 {
            case 0: key = "10.\((i >> 16) & 255).\((i >> 8) & 255).\(i & 255)"
            case 1: key = "10.\((i >> 8) & 255).\(i & 255).0/24"
            default: key = "host\(i).example\(i % 97).com"
            }
            domains[key] = ExceptionDomain(
                includesSubdomains: i % 20 > 1 && i % 2 == 0, allowsInsecureHTTPLoads: i % 3 == 0,
                minimumTLSVersion: i % 5 == 0 ? .tls1_0 : nil, requiresForwardSecrecy: i % 7 != 0)
        }
        return ATSConfiguration(allowsArbitraryLoads: .yes, exceptionDomains: domains)
    }

    static func work(_ count: Int) -> ResolutionWork {
        let work = ResolutionWork()
        let c = configuration(count)
        _ = PolicyExplainer.explain(
            c, eras: PolicyExplainer.eras(for: c, from: AppleOSVersion(string: "15.0"), through: .newest),
            neverMatching: [:], work: work)
        return work
    }

    @Test("10,000 domains: work within a generous linear bound, and ten times 1,000 domains' work")
    func linear() {
        let small = Self.work(1_000)
        let large = Self.work(10_000)
        // Each key gives up to three patterns (itself, one level, deeper), each two eras × four clients, each up to
        // about ten resolutions (the cell, its conflicts, its deciding keys), each a few look-ups: ~50 resolutions
        // and ~300 entries a key, measured. The bounds leave four times that; the walk this replaced examined
        // every entry in every resolution (10,000 × 10,000 × …).
        #expect(large.resolutions <= 10_000 * 200, "\(large.resolutions) resolutions")
        #expect(large.entries <= 10_000 * 1_200, "\(large.entries) entries examined")
        // Ten times the domains is about ten times the work (a quadratic engine would do a hundred times).
        #expect(Double(large.entries) <= 12 * Double(small.entries), "\(small.entries) → \(large.entries)")
        #expect(Double(large.resolutions) <= 12 * Double(small.resolutions))
    }
}
