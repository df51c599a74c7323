import Foundation
import TLSModel
import Testing

@testable import Judging

/// Issue 21, step 5: one tally for the exit status. A report's status and reason, and those of the same endpoints
/// counted one at a time in another order (a streamed scan), are the same.
@Suite("ExitTally: one tally for reports and streams")
struct ExitTallyTests {
    static func endpoint(_ n: Int, status: ScanStatus, verdict: ATSEvaluation.Verdict) -> EndpointResult {
        let profile = ServerProfile(
            target: "h\(n).test:443", host: "h\(n).test", port: 443, address: "127.0.0.1", status: status,
            error: status == .completed ? nil : "connect to h\(n).test:443: refused", handshakes: 1,
            scannedAt: Date(timeIntervalSince1970: 0))
        return EndpointResult(profile: profile, ats: ATSEvaluation(verdict: verdict, osVersion: "26.4"))
    }

    @Test(
        "fails, then incomplete, then passes; counted in any order, the status and the reason do not change",
        arguments: [0, 1, 2, 3])
    func orderDoesNotMatter(_ seed: Int) {
        let cases: [[EndpointResult]] = [
            (0..<8).map { Self.endpoint($0, status: .completed, verdict: $0 % 3 == 0 ? .fail : .pass) },
            (0..<4).map {
                Self.endpoint($0, status: $0 == 2 ? .unreachable : .completed, verdict: $0 == 2 ? .unknown : .pass)
            },
            (0..<3).map { Self.endpoint($0, status: .completed, verdict: .pass) },
            (0..<9).map { Self.endpoint($0, status: .completed, verdict: .ambiguous) },
        ]
        let endpoints = cases[seed]
        let report = ScanReport(endpoints: endpoints, findings: [])
        var shuffled = Array(endpoints.enumerated())
        var generator = LCG(seed: UInt64(seed + 1))
        shuffled.shuffle(using: &generator)
        var tally = ExitTally()
        for (index, endpoint) in shuffled { tally.add(endpoint, at: (index, 0)) }
        #expect(tally.status == ExitStatus.of(report))
        #expect(tally.reason == ExitStatus.reason(for: report))
        #expect([ExitStatus.policyFailure, .incomplete, .success, .policyFailure][seed] == tally.status)
    }

    @Test("§2.3d ambiguous for lack of data exits 2 with its reason; ambiguous by a CONFLICT still exits 1")
    func unsettledByData() {
        var stale = Self.endpoint(1, status: .completed, verdict: .ambiguous)
        stale.ats.ambiguities = ["Certificate Transparency cannot be judged with list v375: run `atscheck data update`"]
        let report = ScanReport(endpoints: [stale, Self.endpoint(2, status: .completed, verdict: .pass)])
        #expect(ExitStatus.of(report) == .incomplete)
        #expect(
            ExitStatus.reason(for: report)?.contains("h1.test:443: Certificate Transparency cannot be judged") == true)
        var conflict = stale
        conflict.ats.readings = [.init(name: "doc", verdict: .fail, violations: [])]
        #expect(ExitStatus.of(ScanReport(endpoints: [conflict])) == .policyFailure)
        #expect(
            ExitStatus.of(ScanReport(endpoints: [stale, Self.endpoint(3, status: .completed, verdict: .fail)]))
                == .policyFailure)
    }

    @Test("an error-level finding fails the run; the reason counts it; the named targets stop at five")
    func findingsAndNames() {
        var tally = ExitTally()
        for n in 0..<7 { tally.add(Self.endpoint(n, status: .completed, verdict: .fail), at: (6 - n, 0)) }
        tally.add(findings: [Finding(rule: RuleID.Audit.exceptionMissing, severity: .error, message: "x")])
        #expect(tally.status == .policyFailure)
        #expect(
            tally.reason
                == "atscheck: 7 endpoint(s) fail ATS: h6.test:443, h5.test:443, h4.test:443, h3.test:443, h2.test:443 and 2 more; 1 error-level finding(s)"
        )
    }
}

/// Issue 25, row 8: the target is looked for in its own error with a linear search (Knuth–Morris–Pratt), not
/// Foundation's quadratic one; the answers are the same. (The time is held by `HostileMergeInputTests`, which runs a
/// 1 MB target through the CLI under a kill timeout.)
@Suite("ExitTally: the target in its error, found in linear time")
struct ExitTallyTargetSearchTests {
    static let cases: [(String, String, Bool)] = [
        ("connect to h.test:443: refused", "h.test:443", true),
        ("cannot resolve h.test: no such host", "h.test:443", false),
        ("aaaaaaab", "aaab", true),
        ("aaaaaaa", "aaab", false),
        ("abababca", "ababca", true),
        ("abc", "", true),
        ("", "a", false),
        ("ab", "abc", false),
        ("über.test:443 failed", "über.test:443", true),
        ("x", "x", true),
    ]

    @Test("the same answers as a plain search", arguments: cases)
    func sameAnswers(_ text: String, _ part: String, _ expected: Bool) {
        #expect(ExitTally.contains(text, part) == expected)
        #expect(ExitTally.contains(text, part) == (part.isEmpty || text.utf8.firstRange(of: part.utf8) != nil))
    }

    @Test("a 64 KB target that its error holds without its port: named once, with the error")
    func longTarget() {
        let host = String(repeating: "a", count: 1 << 16)
        let profile = ServerProfile(
            target: "\(host):443", host: host, port: 443, address: nil, status: .unreachable,
            error: "cannot resolve \(host): Name or service not known", handshakes: 0,
            scannedAt: Date(timeIntervalSince1970: 0))
        let report = ScanReport(endpoints: [EndpointResult(profile: profile, ats: .notEvaluated)])
        #expect(ExitStatus.of(report) == .incomplete)
        let reason = ExitStatus.reason(for: report)
        #expect(reason?.hasSuffix("(first: \(host):443: cannot resolve \(host): Name or service not known)") == true)
    }
}

/// A linear congruential generator, for reproducible shuffles.
struct LCG: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return state
    }
}
