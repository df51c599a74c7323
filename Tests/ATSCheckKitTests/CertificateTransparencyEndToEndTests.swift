import ATSPolicy
import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Certificate Transparency end to end (docs/apple-rules.md §2.2): real loopback servers whose leaves carry SCTs signed
/// by test logs (embedded, in the TLS extension, in a stapled OCSP response), probed with the test PKI's root standing
/// in for a preinstalled root and a test log list, then judged by the ATS policy for iOS 26.4.
@Suite("Certificate Transparency end to end")
struct CertificateTransparencyEndToEndTests {
    static let logA = try! TestCTLog("Test Log A", operator: "Operator A")
    static let logA2 = try! TestCTLog("Test Log A2", operator: "Operator A")
    static let logB = try! TestCTLog("Test Log B", operator: "Operator B")
    static let unlisted = try! TestCTLog("Unlisted Log", operator: "Operator U")
    static let retired = try! TestCTLog("Retired Log", operator: "Operator R")
    static let shard = try! TestCTLog("Shard Log", operator: "Operator S")
    static let tiledA = try! TestCTLog("Tiled Log A", operator: "Operator A")
    static let tiledB = try! TestCTLog("Tiled Log B", operator: "Operator B")
    static let pki = try! TestPKI.make(name: "ct-end-to-end")
    static let start = Date()
    /// Retired an hour before the tests start (whole seconds: the list's format has no fraction).
    static let retiredOn = Date(timeIntervalSince1970: (start.timeIntervalSince1970 - 3_600).rounded(.down))
    static let list = try! TestCTLogList.make([
        TestCTLogListing(logA), TestCTLogListing(logA2), TestCTLogListing(logB),
        TestCTLogListing(retired, state: .retired, since: retiredOn),
        // Takes only certificates expiring one to two years from now: no test leaf.
        TestCTLogListing(
            shard,
            interval: CTLogInterval(
                start: start.addingTimeInterval(365 * 86_400), end: start.addingTimeInterval(730 * 86_400))),
        TestCTLogListing(tiledA, tiled: true), TestCTLogListing(tiledB, tiled: true),
    ])

    /// Serves `configuration`, scans it and judges it.
    static func judge(_ configuration: TLSServerConfiguration) async throws -> (CertificateReport, ATSEvaluation) {
        let server = try TestTLSServer(configuration)
        let root = TestScratch.file("atscheck-ct-root", suffix: ".pem")
        try pki.rootPEM.write(toFile: root, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: root) }
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30)
        request.trustSource = .pemBundle(root)  // the test root as a preinstalled one: CT applies
        request.ctLogList = list
        let profile = await TLSProber(perHostLimit: 2).scan(request)
        let certificate = try #require(profile.certificate)
        let evaluation = ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: "26.4")!)).evaluate(profile)
        return (certificate, evaluation)
    }

    /// A server whose localhost leaf (valid from a day ago for `days`) embeds `scts`.
    static func embedding(_ scts: [SCTSpec], days: Double = 90) throws -> TLSServerConfiguration {
        let spec = CertificateSpec.leaf("localhost", "127.0.0.1", validityDays: days).withSignedSCTs(scts)
        return .modern(chain: pki.chain(for: try pki.leaf(spec)))
    }

    static func ctMessages(_ evaluation: ATSEvaluation) -> [String] {
        evaluation.violations.filter { $0.rule == RuleID.Trust.certificateTransparency }.map(\.message)
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var scts: [SCTSpec]
        var days: Double = 90
        var verdict: ATSEvaluation.Verdict
        /// Text the CT failure must contain.
        var says: String? = nil
    }

    static let cases: [Case] = [
        Case(description: "two logs of two operators", scts: [SCTSpec(logA), SCTSpec(logB)], verdict: .pass),
        Case(
            description: "an unknown log", scts: [SCTSpec(unlisted), SCTSpec(logA)], verdict: .fail,
            says: "log \(unlisted.idBase64) (unknown), embedded: its log is not in the log list"),
        Case(
            description: "a bad signature", scts: [SCTSpec(logA), SCTSpec(logB, corruptSignature: true)],
            verdict: .fail, says: "'Test Log B' (Operator B), embedded: its signature does not verify"),
        Case(
            description: "a retired log, SCT from before it retired",
            scts: [SCTSpec(retired, at: retiredOn.addingTimeInterval(-3_600)), SCTSpec(logA)], verdict: .pass),
        Case(
            description: "a retired log, SCT from after it retired",
            scts: [SCTSpec(retired, at: retiredOn.addingTimeInterval(1_800)), SCTSpec(logA)], verdict: .fail,
            says: "'Retired Log' (Operator R), embedded: the log was retired on"),
        Case(
            description: "a log outside its temporal interval", scts: [SCTSpec(shard), SCTSpec(logA)], verdict: .fail,
            says: "'Shard Log' (Operator S), embedded: the log takes certificates expiring in"),
        Case(
            description: "too few for a 200-day leaf", scts: [SCTSpec(logA), SCTSpec(logB)], days: 200,
            verdict: .fail, says: "3 embedded SCTs from distinct logs"),
        Case(
            description: "three for a 200-day leaf", scts: [SCTSpec(logA), SCTSpec(logA2), SCTSpec(logB)], days: 200,
            verdict: .pass),
    ]

    @Test("embedded SCTs judged by Apple's policy", arguments: cases)
    func embedded(_ c: Case) async throws {
        let (certificate, evaluation) = try await Self.judge(try Self.embedding(c.scts, days: c.days))
        #expect(certificate.anchor == .system)
        #expect(certificate.transparency?.scts.count == c.scts.count)
        #expect(evaluation.verdict == c.verdict, "\(evaluation.violations)")
        let messages = Self.ctMessages(evaluation)
        #expect(messages.isEmpty == (c.verdict == .pass))
        if let says = c.says { #expect(messages.contains { $0.contains(says) }, "\(messages)") }
    }

    @Test("policy (a): SCTs in the TLS extension and a stapled OCSP response, none embedded")
    func delivered() async throws {
        let leaf = try Self.pki.leaf(.leaf("localhost", "127.0.0.1"))
        var configuration = TLSServerConfiguration.modern(chain: Self.pki.chain(for: leaf))
        configuration.sctList = TestCTLog.list([try Self.logA.sct(for: leaf, at: Date().addingTimeInterval(-60))])
        configuration.ocspStaple = try TestOCSPResponse.good(
            for: leaf, issuer: Self.pki.intermediate, scts: [try Self.logB.sct(for: leaf, at: Date())])
        let (certificate, evaluation) = try await Self.judge(configuration)
        #expect(Set(certificate.transparency?.scts.map(\.source) ?? []) == [.tlsExtension, .ocsp])
        #expect(evaluation.verdict == .pass, "\(evaluation.violations)")

        // The same leaf with only the TLS extension's SCT: one log, whichever policy.
        configuration.ocspStaple = nil
        let (_, alone) = try await Self.judge(configuration)
        #expect(alone.verdict == .fail)
        #expect(Self.ctMessages(alone).contains { $0.contains("SCTs count from 1 log(s)") })
    }

    struct ConflictCase: Sendable, CustomStringConvertible {
        var description: String
        var scts: [SCTSpec]
        var days: Double = 90
        var readings: [String: ATSEvaluation.Verdict]
    }

    static let conflictCases: [ConflictCase] = [
        ConflictCase(
            description: "ct-sct-count: exactly 180 × 86,400 s with 2 SCTs", scts: [SCTSpec(logA), SCTSpec(logB)],
            days: 180, readings: ["source-ct-v2-thresholds": .pass, "doc-ct-lifetime-table": .fail]),
        ConflictCase(
            description: "ct-operator-cap: two logs of one operator", scts: [SCTSpec(logA), SCTSpec(logA2)],
            readings: ["source-ct-no-operator-cap": .pass, "doc-ct-operator-cap": .fail]),
        ConflictCase(
            description: "ct-rfc6962-log: only tiled logs", scts: [SCTSpec(tiledA), SCTSpec(tiledB)],
            readings: ["ct-tiled-logs-suffice": .pass, "doc-ct-rfc6962-log-required": .fail]),
    ]

    @Test("each CT CONFLICT that decides is ambiguous with both readings", arguments: conflictCases)
    func conflicts(_ c: ConflictCase) async throws {
        let (_, evaluation) = try await Self.judge(try Self.embedding(c.scts, days: c.days))
        #expect(evaluation.verdict == .ambiguous, "\(evaluation.violations)")
        #expect(Dictionary(uniqueKeysWithValues: evaluation.readings.map { ($0.name, $0.verdict) }) == c.readings)
    }
}
