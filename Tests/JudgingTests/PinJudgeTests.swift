import Foundation
import Judging
import Pinning
import TLSModel
import Testing

/// Pin judging without libssl (issue 33): hand-built certificates and a path builder whose answers the test sets.
@Suite("Pin judging (no libssl)")
struct PinJudgeTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let host = "api.example.com"

    static func cert(_ name: String, issuer: String, isCA: Bool = false, selfSigned: Bool = false) -> CertificateFacts {
        CertificateFacts(
            subject: "CN=\(name)", issuer: "CN=\(issuer)", commonName: name, serialNumber: "01",
            notBefore: now.addingTimeInterval(-30 * 86_400), notAfter: now.addingTimeInterval(300 * 86_400),
            keyType: .rsa, keyBits: 2048, curve: nil, signatureAlgorithm: "sha256WithRSAEncryption",
            signatureHash: .sha256, subjectAltNames: isCA ? [] : [name], isCA: isCA, selfSigned: selfSigned,
            sha256: "fp-\(name)", spkiSHA256: Data("spki-\(name)".utf8).base64EncodedString(),
            der: Data("DER:\(name)".utf8))
    }

    static let root = cert("Root CA", issuer: "Root CA", isCA: true, selfSigned: true)
    static let intermediate = cert("Issuing CA", issuer: "Root CA", isCA: true)
    static let leaf = cert(host, issuer: "Issuing CA")
    static let path = [leaf, intermediate, root]

    /// System trust says `systemSSL` under SSL(host); a pinned-anchor build says `pinnedBasic` under the basic
    /// policy and `pinnedSSL` under SSL.
    struct Builder: TrustPathBuilding {
        var systemSSL: Bool
        var pinnedSSL: Bool
        var pinnedBasic: Bool

        func build(anchors: AnchorChoice, policy: TrustPolicyChoice) -> TrustPathResult {
            let ok: Bool
            switch anchors {
            case .system: ok = policy == .ssl(host: PinJudgeTests.host) && systemSSL
            case .pinned: ok = policy == .basic ? pinnedBasic : pinnedSSL
            }
            return TrustPathResult(ok: ok, path: PinJudgeTests.path, error: ok ? nil : "self-signed certificate")
        }
    }

    static var connection: PinConnection { PinConnection(host: host, served: [leaf, intermediate], now: now) }

    @Test("a release policy: the evaluation alone, as the library decides")
    func release() {
        let builder = Builder(systemSSL: true, pinnedSSL: true, pinnedBasic: true)
        let policy = PinPolicy.afnetworking(AFSecurityPolicyOptions(mode: .certificate))
        let pins = AppPins(certificates: [Self.root])
        let judgement = PinJudge.judge(policy, pins: pins, connection: Self.connection, builder: builder)
        #expect(judgement.evaluation == policy.evaluate(Self.connection, pins: pins, builder: builder))
        #expect(judgement.evaluation.verdict == .accept)
        #expect(judgement.release == nil && judgement.risks.isEmpty)
    }

    @Test("a relaxed policy: the release build next to it, with the risks of shipping the relaxed one")
    func relaxed() throws {
        // docs/pinning-rules.md §2: a self-signed staging certificate that is itself pinned.
        let builder = Builder(systemSSL: false, pinnedSSL: false, pinnedBasic: true)
        let debug = AFSecurityPolicyOptions(
            mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false)
        let judgement = PinJudge.judge(
            .afnetworking(debug), pins: AppPins(certificates: [Self.root]), connection: Self.connection,
            builder: builder)
        #expect(judgement.evaluation.verdict == .accept)
        let release = try #require(judgement.release)
        #expect(release.verdict == .reject)
        #expect(judgement.risks.contains { $0.rule == RuleID.Pins.debugReleaseDiffers })
        #expect(judgement.risks.contains { $0.rule == RuleID.Pins.debugAllowInvalid })
    }

    @Test("the exit status of a pin check: 1 on a rejection, else 2 when a target could not be read, else 0")
    func exitStatus() {
        let accept = PinJudge.judge(
            .afnetworking(AFSecurityPolicyOptions(mode: .certificate)), pins: AppPins(certificates: [Self.root]),
            connection: Self.connection, builder: Builder(systemSSL: true, pinnedSSL: true, pinnedBasic: true)
        ).evaluation
        let reject = PinJudge.judge(
            .afnetworking(AFSecurityPolicyOptions(mode: .certificate)), pins: AppPins(certificates: [Self.root]),
            connection: Self.connection, builder: Builder(systemSSL: false, pinnedSSL: false, pinnedBasic: false)
        ).evaluation
        func result(_ target: String, _ evaluation: PinEvaluation?) -> PinCheckResult {
            PinCheckResult(
                target: target, host: Self.host, port: 443, address: nil,
                status: evaluation == nil ? .error : .completed, error: evaluation == nil ? "refused" : nil,
                evaluation: evaluation)
        }
        func report(_ results: [PinCheckResult]) -> PinCheckReport {
            PinCheckReport(library: .afnetworking, pinFiles: [], results: results, findings: [])
        }
        #expect(ExitStatus.of(report([result("a", accept)])) == .success)
        #expect(ExitStatus.reason(for: report([result("a", accept)])) == nil)
        #expect(ExitStatus.of(report([result("a", accept), result("b", nil)])) == .incomplete)
        #expect(
            ExitStatus.reason(for: report([result("a", accept), result("b", nil)]))
                == "atscheck: 1 target(s) could not be checked (first: b: refused)")
        #expect(ExitStatus.of(report([result("a", reject), result("b", nil)])) == .policyFailure)
        #expect(
            ExitStatus.reason(for: report([result("a", reject), result("b", nil)]))
                == "atscheck: the afnetworking policy rejects 1 target(s): a")
    }
}
