import ATSCheckKit
import Foundation
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// Which certificates a row pins.
enum PinChoice: String, Sendable {
    case none, intermediate, selfSignedLeaf, leaf, otherIntermediate, root, unrelated, rotatedIntermediate

    func certificates(_ s: PinScenarios) -> [TestCertificate] {
        switch self {
        case .none: return []
        case .intermediate: return [s.pki.intermediate]
        case .selfSignedLeaf: return [s.selfSignedLeaf]
        case .leaf: return [s.leaf]
        case .otherIntermediate: return [s.otherPKI.intermediate]
        case .root: return [s.pki.root]
        case .unrelated: return [s.unrelated]
        case .rotatedIntermediate: return [s.rotatedIntermediate]
        }
    }
}

/// One row of docs/pinning-rules.md §1.3, played against a real server.
struct AFRow: Sendable, CustomTestStringConvertible {
    var row: Int
    var scenario: String
    var mode: AFSecurityPolicyOptions.Mode
    var allowInvalid: Bool
    var validatesDomain: Bool
    var pins: PinChoice
    var verdict: PinVerdict
    var result: String

    var testDescription: String {
        "row \(row): \(mode.rawValue), allowInvalid \(allowInvalid ? "YES" : "NO"), validatesDomain "
            + "\(validatesDomain ? "YES" : "NO"), pins \(pins.rawValue), \(scenario) server → "
            + "\(verdict.rawValue.uppercased())"
    }
}

/// AFSecurityPolicy end to end: each row of the 25-row table (docs/pinning-rules.md §1.3) against staging-like servers,
/// with the real OpenSSL path builder under the evaluator.
@Suite("AFSecurityPolicy §1.3 rows against real servers")
struct PinAFRowTests {
    static let rows: [AFRow] = [
        AFRow(
            row: 1, scenario: "private-ca", mode: .none, allowInvalid: false, validatesDomain: true, pins: .none,
            verdict: .accept, result: "accepted"),
        AFRow(
            row: 2, scenario: "self-signed", mode: .none, allowInvalid: false, validatesDomain: true, pins: .none,
            verdict: .reject, result: "system-trust-failed"),
        AFRow(
            row: 2, scenario: "wrong-host", mode: .none, allowInvalid: false, validatesDomain: true, pins: .none,
            verdict: .reject, result: "system-trust-failed"),
        AFRow(
            row: 3, scenario: "wrong-host", mode: .none, allowInvalid: false, validatesDomain: false, pins: .none,
            verdict: .accept, result: "accepted"),
        AFRow(
            row: 4, scenario: "expired", mode: .none, allowInvalid: false, validatesDomain: false, pins: .none,
            verdict: .reject, result: "system-trust-failed"),
        AFRow(
            row: 5, scenario: "self-signed", mode: .none, allowInvalid: true, validatesDomain: true, pins: .none,
            verdict: .reject, result: "self-signed-guard"),
        AFRow(
            row: 6, scenario: "self-signed", mode: .none, allowInvalid: true, validatesDomain: false, pins: .none,
            verdict: .accept, result: "accepted-without-validation"),
        AFRow(
            row: 7, scenario: "private-ca", mode: .certificate, allowInvalid: false, validatesDomain: true, pins: .none,
            verdict: .reject, result: "no-anchors"),
        AFRow(
            row: 8, scenario: "self-signed", mode: .certificate, allowInvalid: false, validatesDomain: true,
            pins: .selfSignedLeaf, verdict: .reject, result: "system-trust-failed"),
        AFRow(
            row: 9, scenario: "private-ca", mode: .certificate, allowInvalid: false, validatesDomain: true,
            pins: .intermediate, verdict: .accept, result: "accepted"),
        AFRow(
            row: 9, scenario: "private-ca", mode: .certificate, allowInvalid: false, validatesDomain: true, pins: .root,
            verdict: .accept, result: "accepted"),
        AFRow(
            row: 10, scenario: "renewed-same-key", mode: .certificate, allowInvalid: false, validatesDomain: true,
            pins: .leaf, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 10, scenario: "rotated-intermediate", mode: .certificate, allowInvalid: false, validatesDomain: true,
            pins: .intermediate, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 10, scenario: "extra-unrelated", mode: .certificate, allowInvalid: false, validatesDomain: true,
            pins: .unrelated, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 11, scenario: "wrong-host", mode: .certificate, allowInvalid: false, validatesDomain: false,
            pins: .intermediate, verdict: .accept, result: "accepted"),
        AFRow(
            row: 12, scenario: "self-signed", mode: .certificate, allowInvalid: true, validatesDomain: true,
            pins: .none, verdict: .reject, result: "self-signed-guard"),
        AFRow(
            row: 13, scenario: "self-signed", mode: .certificate, allowInvalid: true, validatesDomain: true,
            pins: .selfSignedLeaf, verdict: .accept, result: "accepted"),
        AFRow(
            row: 14, scenario: "wrong-host", mode: .certificate, allowInvalid: true, validatesDomain: true,
            pins: .intermediate, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 14, scenario: "expired", mode: .certificate, allowInvalid: true, validatesDomain: true,
            pins: .intermediate, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 15, scenario: "self-signed", mode: .certificate, allowInvalid: true, validatesDomain: false,
            pins: .selfSignedLeaf, verdict: .accept, result: "accepted"),
        AFRow(
            row: 16, scenario: "expired", mode: .certificate, allowInvalid: true, validatesDomain: false,
            pins: .intermediate, verdict: .reject, result: "pinned-anchor-evaluation-failed"),
        AFRow(
            row: 17, scenario: "self-signed", mode: .certificate, allowInvalid: true, validatesDomain: false,
            pins: .none, verdict: .reject, result: "no-anchors"),
        AFRow(
            row: 18, scenario: "private-ca", mode: .publicKey, allowInvalid: false, validatesDomain: true, pins: .none,
            verdict: .reject, result: "no-pinned-keys"),
        AFRow(
            row: 19, scenario: "self-signed", mode: .publicKey, allowInvalid: false, validatesDomain: true,
            pins: .selfSignedLeaf, verdict: .reject, result: "system-trust-failed"),
        AFRow(
            row: 20, scenario: "private-ca", mode: .publicKey, allowInvalid: false, validatesDomain: true,
            pins: .intermediate, verdict: .accept, result: "accepted"),
        AFRow(
            row: 20, scenario: "renewed-same-key", mode: .publicKey, allowInvalid: false, validatesDomain: true,
            pins: .leaf, verdict: .accept, result: "accepted"),
        AFRow(
            row: 20, scenario: "private-ca", mode: .publicKey, allowInvalid: false, validatesDomain: true, pins: .root,
            verdict: .accept, result: "accepted"),
        AFRow(
            row: 21, scenario: "renewed-new-key", mode: .publicKey, allowInvalid: false, validatesDomain: true,
            pins: .leaf, verdict: .reject, result: "no-pinned-key-in-path"),
        AFRow(
            row: 21, scenario: "extra-unrelated", mode: .publicKey, allowInvalid: false, validatesDomain: true,
            pins: .unrelated, verdict: .reject, result: "no-pinned-key-in-path"),
        AFRow(
            row: 22, scenario: "wrong-host", mode: .publicKey, allowInvalid: false, validatesDomain: false,
            pins: .intermediate, verdict: .accept, result: "accepted"),
        AFRow(
            row: 23, scenario: "self-signed", mode: .publicKey, allowInvalid: true, validatesDomain: true, pins: .none,
            verdict: .reject, result: "self-signed-guard"),
        AFRow(
            row: 24, scenario: "expired", mode: .publicKey, allowInvalid: true, validatesDomain: true,
            pins: .intermediate, verdict: .accept, result: "accepted"),
        AFRow(
            row: 24, scenario: "self-signed", mode: .publicKey, allowInvalid: true, validatesDomain: false,
            pins: .selfSignedLeaf, verdict: .accept, result: "accepted"),
        AFRow(
            row: 25, scenario: "self-signed", mode: .publicKey, allowInvalid: true, validatesDomain: true,
            pins: .otherIntermediate, verdict: .reject, result: "no-pinned-key-in-path"),
    ]

    @Test("AFSecurityPolicy decides as the table of docs/pinning-rules.md §1.3", arguments: rows)
    func row(_ row: AFRow) async throws {
        let s = try await PinScenarios.shared()
        let options = AFSecurityPolicyOptions(
            mode: row.mode, allowInvalidCertificates: row.allowInvalid, validatesDomainName: row.validatesDomain)
        let result = try s.result(
            row.scenario, try s.checker(.afnetworking(options), certificates: row.pins.certificates(s)))
        let evaluation = try #require(result.evaluation)
        #expect(evaluation.verdict == row.verdict, "\(evaluation.steps.map { "\($0.name): \($0.detail)" })")
        #expect(evaluation.result == row.result)
        #expect((result.release != nil) == options.isRelaxed)
    }

    @Test("a pinned root the server did not send is on the path iOS builds, at the anchor position")
    func rootNotSentIsOnThePath() async throws {
        let s = try await PinScenarios.shared()
        let options = AFSecurityPolicyOptions(mode: .publicKey)
        let evaluation = try #require(
            try s.result("private-ca", try s.checker(.afnetworking(options), certificates: [s.pki.root])).evaluation)
        #expect(evaluation.path.count == 3)
        #expect(evaluation.path.last?.sentByServer == false)
        #expect(evaluation.matches.map(\.position) == [2])
        #expect(evaluation.matches.first?.role == "anchor")
    }

    @Test("extra certificates the server sends are left out of the path")
    func extraCertificatesAreNotOnThePath() async throws {
        let s = try await PinScenarios.shared()
        #expect(s.served["extra-unrelated"]?.count == 4)
        let evaluation = try #require(
            try s.result(
                "extra-unrelated",
                try s.checker(
                    .afnetworking(AFSecurityPolicyOptions(mode: .publicKey)), certificates: [s.pki.intermediate])
            ).evaluation)
        #expect(
            evaluation.path.map(\.spkiSHA256)
                == [s.leaf, s.pki.intermediate, s.pki.root].map { PinScenarios.facts($0).spkiSHA256 })
    }

    @Test(
        "AFNetworking 2.x matches the chain read before the anchored evaluation: a pinned root the server did not send never matches"
    )
    func af2RootNotSent() async throws {
        let s = try await PinScenarios.shared()
        func evaluate(_ version: Int) throws -> PinEvaluation {
            let options = AFSecurityPolicyOptions(
                mode: .certificate, allowInvalidCertificates: true, validatesDomainName: false, afVersion: version)
            // No --ca-file: the device does not trust the staging root; only the pin anchors it.
            return try #require(
                try s.result(
                    "private-ca", try s.checker(.afnetworking(options), certificates: [s.pki.root], caFiles: [])
                ).evaluation)
        }
        let v4 = try evaluate(4)
        let v2 = try evaluate(2)
        #expect(v4.verdict == .accept)
        #expect(v4.matches.first?.position == 2)
        #expect(v2.verdict == .reject)
        #expect(v2.result == "no-pin-in-path")
    }
}
