import ATSPolicy
import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// Stapled OCSP from an implementation no one on this project wrote: `openssl ocsp` answers from an index file (as a
/// CA's responder would, with its own responder key) and `openssl s_server -status_file` staples the answer. The
/// probe scans the server, the ATS engine judges it, and the profile's JSON is read back and judged again from its
/// saved bytes, as `--profile` does.
@Suite(
    "openssl ocsp responses stapled by openssl s_server", .serialized,
    .enabled(if: OpenSSLServer.binary != nil, "openssl is not installed: no s_server or ocsp"))
struct OpenSSLServerOCSPTests {
    static let pki = try! TestPKI.make(name: "s_server-ocsp")
    static let serial = 0x5A17_0000 + Int.random(in: 1..<0xFFFF)
    static let leaf = try! pki.leaf(
        {
            var spec = CertificateSpec.leaf("localhost", "127.0.0.1")
                .withExtension("authorityInfoAccess", "OCSP;URI:http://127.0.0.1:9/ocsp")
            spec.serial = serial
            return spec
        }())
    static let otherSerial = serial + 1
    static let other = try! pki.leaf(
        {
            var spec = CertificateSpec.leaf("other.example")
            spec.serial = otherSerial
            return spec
        }())
    static let responder = try! pki.intermediate.issue(
        CertificateSpec(commonName: "s_server-ocsp Responder", keySlot: "s_server-ocsp-responder")
            .withExtendedKeyUsage(["OCSPSigning"]).withExtension("keyUsage", "critical,digitalSignature"))
    static let forged = try! TestCertificate.selfSigned(
        {
            var spec = CertificateSpec.ca("s_server-ocsp Test Intermediate CA")
            spec.keySlot = "s_server-ocsp-forged"
            return spec
        }())

    enum Signer: Sendable { case issuer, delegated, forged }

    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        var revoked = false
        var signer = Signer.issuer
        var aboutOther = false
        /// `-nmin`: minutes until nextUpdate.
        var minutes = 60 * 24
        /// Judged this many seconds after now.
        var later: TimeInterval = 0
        let verdict: ATSEvaluation.Verdict
        let status: StapledOCSPFacts.Status?
        let problem: StapledOCSPFacts.Problem?
        let says: String
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "good", verdict: .pass, status: .good, problem: nil, says: ""),
        Case(
            name: "revoked", revoked: true, verdict: .fail, status: .revoked, problem: nil,
            says: "is revoked: the server staples an OCSP response signed by its issuer"),
        Case(
            name: "expired (nextUpdate in the past at --at)", minutes: 1, later: 86_400, verdict: .pass,
            status: .good, problem: .expired, says: "the stapled OCSP response is not used: it has expired"),
        Case(
            name: "signed by the wrong key", signer: .forged, verdict: .pass, status: .good, problem: .unverified,
            says: "its signature is not from the issuer"),
        Case(
            name: "for another certificate", aboutOther: true, verdict: .pass, status: nil,
            problem: .otherCertificate, says: "it is about another certificate"),
        Case(
            name: "revoked, from a delegated responder", revoked: true, signer: .delegated, verdict: .fail,
            status: .revoked, problem: nil, says: "signed by the delegated responder 'CN=s_server-ocsp Responder"),
        Case(
            name: "revoked, expired, the leaf names a responder", revoked: true, minutes: 1, later: 86_400,
            verdict: .ambiguous, status: .revoked, problem: .expired,
            says: "trustd keeps it and asks the certificate's OCSP responder (http://127.0.0.1:9/ocsp)"),
    ]

    /// Runs `openssl ocsp` as a responder over an index file and returns the DER response.
    static func respond(_ test: Case, in directory: String) throws -> Data {
        func write(_ text: String, _ name: String) throws -> String {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            return path
        }
        let hex = { (serial: Int) in String(serial, radix: 16, uppercase: true) }
        let status =
            test.revoked ? "R\t351231000000Z\t241101000000Z,keyCompromise" : "V\t351231000000Z\t"
        let index = try write(
            "\(status)\t\(hex(serial))\tunknown\t/CN=localhost\nV\t351231000000Z\t\t\(hex(otherSerial))\tunknown\t"
                + "/CN=other.example\n", "index.txt")
        let ca = try write(pki.intermediate.pem, "ca.pem")
        let signer: TestCertificate =
            switch test.signer {
            case .issuer: pki.intermediate
            case .delegated: responder
            case .forged: forged
            }
        let signerPEM = try write(signer.pem, "signer.pem")
        let signerKey = try write(signer.key.pem, "signer.key")
        let subject = try write((test.aboutOther ? other : leaf).pem, "subject.pem")
        let output = directory + "/ocsp.der"
        let process = try ChildProcess(
            OpenSSLServer.binary!,
            [
                "ocsp", "-index", index, "-rsigner", signerPEM, "-rkey", signerKey, "-CA", ca, "-issuer", ca,
                "-cert", subject, "-respout", output, "-nmin", "\(test.minutes)", "-no_nonce",
            ] + (test.signer == .forged ? ["-resp_no_certs"] : []))
        let ocspExit = process.waitForExit()
        guard ocspExit == 0 else {
            throw OpenSSLServer.Failure(reason: "openssl ocsp exited \(ocspExit)")
        }
        return try Data(contentsOf: URL(fileURLWithPath: output))
    }

    @Test("the staple is judged, and judged again from a saved profile", arguments: cases)
    func stapled(_ test: Case) async throws {
        let at = Date().addingTimeInterval(test.later)
        var response = Data()
        let server = try OpenSSLServer.start(chain: Self.pki.chain(for: Self.leaf)) { directory in
            response = try Self.respond(test, in: directory)
            try response.write(to: URL(fileURLWithPath: directory + "/ocsp.der"))
            return ["-status_file", directory + "/ocsp.der"]
        }
        defer { server.stop() }
        let caFile = try ProbeFixtures.caFile(Self.pki)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        var request = ProbeRequest(
            target: try Target(parsing: "localhost:\(server.port)"), connectAddress: "127.0.0.1", timeout: 3,
            deadline: 60, caFiles: [caFile], now: at)
        request.trustSource = .none
        request.scope = .atsOnly
        let profile = await TLSProber().scan(request)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        let certificate = try #require(profile.certificate)
        #expect(certificate.ocspStapled == true)
        let staple = try #require(certificate.revocation?.stapled)
        #expect(staple.response == response)
        #expect(staple.status == test.status)
        #expect(staple.problem == test.problem, "\(staple.detail ?? "")")
        let responder: StapledOCSPFacts.Responder? =
            test.aboutOther ? nil : [.issuer: .issuer, .delegated: .delegated, .forged: nil][test.signer] ?? nil
        #expect(staple.responder == responder)
        #expect(certificate.revocation?.leafResponders == ["http://127.0.0.1:9/ocsp"])
        try Self.expectVerdict(profile, test, at: at)

        // Saved and read back: the staple is checked again from its bytes, at the same time.
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        var saved = try decoder.decode(ServerProfile.self, from: try encoder.encode(profile))
        let kept = try #require(saved.certificate)
        saved.certificate = try ChainReports(source: .none, caFiles: [caFile], logList: nil).report(
            chain: kept.chain.map(\.der), ocspStapled: kept.ocspStapled,
            stapledOCSP: kept.revocation?.stapled?.response, host: saved.host, now: at)
        #expect(saved.certificate?.revocation?.stapled?.status == test.status)
        #expect(saved.certificate?.revocation?.stapled?.problem == test.problem)
        try Self.expectVerdict(saved, test, at: at)
    }

    static func expectVerdict(_ profile: ServerProfile, _ test: Case, at: Date) throws {
        let evaluation = ATSPolicyEvaluator(now: at).evaluate(profile)
        #expect(evaluation.verdict == test.verdict, "\(evaluation.violations.map(\.message)) \(evaluation.notes)")
        #expect(evaluation.violations.filter { $0.rule == .Trust.revoked }.count == (test.verdict == .fail ? 1 : 0))
        if !test.says.isEmpty {
            let said = evaluation.violations.map(\.message) + evaluation.notes
            #expect(said.contains { $0.contains(test.says) }, "\(said)")
        }
    }
}
