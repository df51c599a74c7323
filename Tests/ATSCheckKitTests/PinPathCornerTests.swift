import ATSCheckKit
import CertificateTrust
import Foundation
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// The corners where the pinning libraries' own unit tests disagreed with atscheck (issue 23), written after each
/// library's documented behaviour (docs/pinning-rules.md): the path is built as trustd builds it, so an
/// anyExtendedKeyUsage root anchors, and a pinned leaf that is its own anchor ends the path.
@Suite("Pin evaluation corners: anyEKU roots, pinned leaves as anchors")
struct PinPathCornerTests {
    static func directory(_ certificates: [TestCertificate]) throws -> String {
        let dir = TestScratch.file("atscheck-pin-corner")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (i, certificate) in certificates.enumerated() {
            try certificate.der.write(to: URL(fileURLWithPath: "\(dir)/pin\(i).cer"))
        }
        return dir
    }

    static func check(
        _ library: PinLibrary, _ values: [String: String], pins: [TestCertificate], served: [TestCertificate],
        caFiles: [String] = [], host: String = "corner.atscheck.test"
    ) throws -> PinEvaluation {
        let dir = try directory(pins)
        let options = PinPolicyOptions(library: library, values: PinOptionValues(values))
        var checker = try PinChecker(
            policy: options.policy, pins: try PinMaterialLoader.load(dir), pinsPath: dir, caFiles: caFiles,
            useSystemStore: false)
        checker.trustSource = .none
        let facts = try served.map { try CertificateParsing.facts(der: $0.der) }
        let result = try checker.result(target: host, host: host, port: 443, address: nil, served: facts)
        return try #require(result.evaluation)
    }

    @Test("Alamofire pinned certificates, defaults: a root whose critical EKU is anyExtendedKeyUsage is accepted")
    func anyEKURoot() throws {
        // Alamofire's test chains have such a root; OpenSSL's sslserver purpose refused it ("unsuitable certificate
        // purpose"), Apple checks serverAuth on the leaf only.
        let root = try TestCertificate.selfSigned(
            CertificateSpec.ca("corner anyEKU root").withExtension("extendedKeyUsage", "critical,anyExtendedKeyUsage"))
        let intermediate = try root.issue(.ca("corner anyEKU intermediate"))
        let leaf = try intermediate.issue(.leaf("corner.atscheck.test"))
        let ca = TestScratch.file("atscheck-corner-root", suffix: ".pem")
        try root.pem.write(toFile: ca, atomically: true, encoding: .utf8)
        let evaluation = try Self.check(
            .alamofire, ["evaluator": "pinned-certificates"], pins: [root], served: [leaf, intermediate],
            caFiles: [ca])
        #expect(evaluation.verdict == .accept, "\(evaluation.result): \(evaluation.steps.map(\.detail))")
        // A sub-CA restricted to clientAuth is still refused, as trustd refuses it.
        let clientOnly = try root.issue(
            CertificateSpec.ca("corner client-only intermediate").withExtendedKeyUsage(["clientAuth"]))
        let clientLeaf = try clientOnly.issue(.leaf("corner.atscheck.test"))
        let refused = try Self.check(
            .alamofire, ["evaluator": "pinned-certificates"], pins: [root], served: [clientLeaf, clientOnly],
            caFiles: [ca])
        #expect(refused.verdict == .reject)
    }

    @Test(
        "AFNetworking certificate mode, pinned self-signed leaf: the leaf is the whole path; what follows is not checked"
    )
    func pinnedLeafAnchor() throws {
        // allowInvalidCertificates = YES, validatesDomainName = NO (docs/pinning-rules.md, the staging row): the
        // anchored evaluation under BasicX509 with the pinned leaf as the only anchor ends at the leaf, so an expired
        // CA the server also sends does not matter.
        var spec = CertificateSpec.leaf("corner.atscheck.test")
        spec.keySlot = "corner-self-signed"
        let leaf = try TestCertificate.selfSigned(spec)
        let expiredCA = try TestCertificate.selfSigned(CertificateSpec.ca("corner expired CA").expired())
        let evaluation = try Self.check(
            .afnetworking, ["mode": "certificate", "allowInvalidCertificates": "true", "validatesDomainName": "false"],
            pins: [leaf], served: [leaf, expiredCA])
        #expect(evaluation.verdict == .accept, "\(evaluation.result): \(evaluation.steps.map(\.detail))")
        #expect(evaluation.path.count == 1)
    }
}
