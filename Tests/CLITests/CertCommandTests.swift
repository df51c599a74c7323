import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `atscheck cert`: a chain judged from a file, before it is served (issue 23).
@Suite("atscheck cert (CLI)")
struct CertCommandTests {
    static let pki = try! TestPKI.make(name: "cert command")

    /// Writes `text` to a new temporary file and returns its path.
    static func file(_ text: String, _ suffix: String = "pem") throws -> String {
        let path = TestScratch.file("atscheck-cert", suffix: ".\(suffix)")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static var rootFile: String { get throws { try file(pki.rootPEM) } }

    func endpoint(_ json: Any?) throws -> [String: Any] {
        let endpoints = try #require((json as? [String: Any])?["endpoints"] as? [[String: Any]])
        return try #require(endpoints.first)
    }

    @Test("a good chain passes for its host and fails for another; the JSON says no handshake was made")
    func passAndHostname() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let root = try Self.rootFile
        let pass = try CLI.run([
            "cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", root, "--format",
            "json",
        ])
        #expect(pass.status == 0, "\(pass.stdout)\(pass.stderr)")
        let ok = try endpoint(pass.json)
        #expect(ok["scope"] as? String == "certificate")
        #expect(ok["handshakes"] as? Int == 0)
        #expect(((ok["ats"] as? [String: Any])?["verdict"] as? String) == "pass")
        #expect(((ok["certificate"] as? [String: Any])?["verifiedChain"] as? [Any])?.count == 3)

        let wrong = try CLI.run(
            ["cert", chain, "--host", "other.atscheck.test", "--trust-store", "none", "--ca-file", root],
            environment: ["COLUMNS": "400"])
        #expect(wrong.status == 1)
        #expect(
            wrong.stdout.contains("CERTIFICATE FAIL") && wrong.stdout.contains("[trust.hostname]"), "\(wrong.stdout)")

        // No --host: the hostname is not judged, and the report says so.
        let noHost = try CLI.run(["cert", chain, "--trust-store", "none", "--ca-file", root])
        #expect(noHost.status == 0)
        #expect(noHost.stdout.contains("no --host: the hostname was not checked"))
    }

    @Test("--at judges at another time: the leaf's expiry is named with its date, and before notBefore too")
    func atDate() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))  // a day ago for 90 days
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let root = try Self.rootFile
        let base = ["cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", root]
        let later = ISO8601DateFormatter().string(from: Date().addingTimeInterval(120 * 86_400))
        let expired = try CLI.run(base + ["--at", later])
        #expect(expired.status == 1)
        #expect(expired.stdout.contains("[trust.expired]") && expired.stdout.contains("the certificate expired on"))
        #expect(!expired.stdout.contains("[trust.untrusted]"), "a date error is not reported as an untrusted chain")
        let earlier = try CLI.run(base + ["--at", "2001-01-01"])
        #expect(earlier.status == 1)
        #expect(earlier.stdout.contains("[trust.not-yet-valid]"))
        // Within --warn-days of expiry: a warning, exit 0 unless --fail-on warning.
        let soon = ISO8601DateFormatter().string(from: Date().addingTimeInterval(80 * 86_400))
        let warned = try CLI.run(base + ["--at", soon])
        #expect(warned.status == 0)
        #expect(warned.stdout.contains("trust.expiry.soon"))
        let bad = try CLI.run(base + ["--at", "next tuesday"])
        #expect(bad.status == 64)
    }

    @Test("a chain in any order is put in path order and the report says so; a certificate off the path is named")
    func ordering() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let stray = try TestPKI.make(name: "cert stray").intermediate
        let chain = try Self.file(TestCertificate.pemBundle([Self.pki.intermediate, stray, leaf]))
        let run = try CLI.run([
            "cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", try Self.rootFile,
            "--format", "json",
        ])
        #expect(run.status == 0, "\(run.stdout)")
        let ok = try endpoint(run.json)
        let sent = try #require((ok["certificate"] as? [String: Any])?["chain"] as? [[String: Any]])
        #expect(sent.first?["sha256"] as? String == leaf.sha256.lowercased())
        let notes = ((ok["ats"] as? [String: Any])?["notes"] as? [String]) ?? []
        #expect(notes.contains { $0.contains("not in path order") })
        #expect(notes.contains { $0.contains("certificate(s) 2 are not on the leaf's issuer chain") }, "\(notes)")
    }

    @Test("an unreadable chain is exit 65 naming the file: missing, not a certificate, a broken PEM block, empty")
    func unreadable() throws {
        let missing = try CLI.run(["cert", "/nonexistent/chain.pem"])
        #expect(missing.status == 65)
        #expect(missing.stderr.contains("/nonexistent/chain.pem: no such file"))
        let garbage = try Self.file("hello\n", "der")
        let notCert = try CLI.run(["cert", garbage])
        #expect(notCert.status == 65)
        #expect(notCert.stderr.contains(garbage) && notCert.stderr.contains("neither PEM nor a DER certificate"))
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let broken = try Self.file(
            leaf.pem + "-----BEGIN CERTIFICATE-----\nnot base64 at all\n-----END CERTIFICATE-----\n")
        let brokenRun = try CLI.run(["cert", broken])
        #expect(brokenRun.status == 65)
        #expect(brokenRun.stderr.contains("certificate 2 of 2 is not a valid PEM certificate"), "\(brokenRun.stderr)")
        #expect(brokenRun.stderr.split(separator: "\n").count == 1)
        let empty = try Self.file("")
        #expect(try CLI.run(["cert", empty]).status == 65)
    }

    @Test("a DER leaf reads; the key algorithms Apple refuses (DSA) fail with their own rule")
    func derAndDSA() throws {
        let dsaRoot = try TestCertificate.selfSigned(.ca("cert dsa root", key: .dsa(bits: 2048)))
        let leaf = try dsaRoot.issue(.leaf("cert.atscheck.test"))
        let der = TestScratch.file("atscheck-cert", suffix: ".der")
        try leaf.der.write(to: URL(fileURLWithPath: der))
        let root = try Self.file(dsaRoot.pem)
        let run = try CLI.run(
            ["cert", der, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", root],
            environment: ["COLUMNS": "400"])
        #expect(run.status == 1, "\(run.stdout)")
        #expect(
            run.stdout.contains("has a DSA key; Apple accepts only RSA, EC, Ed25519 and Ed448 keys"), "\(run.stdout)")
        #expect(run.stdout.contains("[trust.key-algorithm]"))
    }

    @Test(
        "--pins: each library whose material is there decides; a renewal off the pinned CA is rejected before it ships")
    func pins() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let root = try Self.rootFile
        let pinDir = TestScratch.file("atscheck-cert-pins")
        try FileManager.default.createDirectory(atPath: pinDir, withIntermediateDirectories: true)
        try Self.pki.intermediate.der.write(to: URL(fileURLWithPath: pinDir + "/intermediate.cer"))
        let base = [
            "cert", "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", root, "--pins", pinDir,
        ]
        let pinned = try CLI.run(base + [chain])
        #expect(pinned.status == 0, "\(pinned.stdout)\(pinned.stderr)")

        // The renewal comes from another CA: AFNetworking (certificate mode) and Alamofire both reject it.
        let other = try TestPKI.make(name: "cert renewal CA")
        let renewed = try Self.file(
            TestCertificate.pemBundle([try other.leaf(.leaf("cert.atscheck.test")), other.intermediate]))
        let otherRoot = try Self.file(other.rootPEM)
        let rejected = try CLI.run(base + [renewed, "--ca-file", otherRoot, "--format", "json"])
        #expect(rejected.status == 1, "\(rejected.stdout)\(rejected.stderr)")
        let findings = ((rejected.json as? [String: Any])?["findings"] as? [[String: Any]]) ?? []
        let rejections = findings.filter { $0["rule"] as? String == "pins.rejected" }
        #expect(rejections.count == 2, "\(findings)")
        #expect(rejections.contains { ($0["message"] as? String)?.hasPrefix("afnetworking: ") == true })
        #expect(rejections.contains { ($0["message"] as? String)?.hasPrefix("alamofire: ") == true })
        // Pins are per host.
        #expect(try CLI.run(["cert", chain, "--pins", pinDir]).status == 64)
    }

    @Test("a leaf with keyCertSign is a warning (trust.key-usage), not a failure: Apple's SSL policy does not check it")
    func keyUsageWarning() throws {
        let leaf = try Self.pki.leaf(
            CertificateSpec.leaf("cert.atscheck.test").withExtension(
                "keyUsage", "critical,digitalSignature,keyCertSign"))
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let base = [
            "cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", try Self.rootFile,
        ]
        let run = try CLI.run(base)
        #expect(run.status == 0, "\(run.stdout)")
        #expect(
            run.stdout.contains("[trust.key-usage]")
                && run.stdout.contains("keyCertSign on a certificate that is not a CA"))
        #expect(try CLI.run(base + ["--fail-on", "warning"]).status == 1)
    }

    /// An Info.plist pinning `host`'s CA identities to `spki`.
    static func pinnedPlist(host: String, spki: String) throws -> String {
        try file(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0"><dict>
              <key>NSAppTransportSecurity</key><dict>
                <key>NSPinnedDomains</key><dict>
                  <key>\(host)</key><dict>
                    <key>NSPinnedCAIdentities</key><array><dict>
                      <key>SPKI-SHA256-BASE64</key><string>\(spki)</string>
                    </dict></array>
                  </dict>
                </dict>
              </dict>
            </dict></plist>
            """, "plist")
    }

    @Test("--plist: the app's NSPinnedDomains decide for the chain; a CA the pins do not name is rejected")
    func plistPinnedDomains() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let base = [
            "cert", chain, "--host", "cert.atscheck.test", "--trust-store", "none", "--ca-file", try Self.rootFile,
        ]
        let intermediateSPKI = try #require(
            (try CLI.run(base + ["--format", "json"]).json as? [String: Any]).flatMap {
                (($0["endpoints"] as? [[String: Any]])?.first?["certificate"] as? [String: Any])?["chain"]
                    as? [[String: Any]]
            }?[1]["spkiSHA256"] as? String)
        let good = try Self.pinnedPlist(host: "cert.atscheck.test", spki: intermediateSPKI)
        let passed = try CLI.run(base + ["--plist", good])
        #expect(passed.status == 0, "\(passed.stdout)")
        let bad = try Self.pinnedPlist(host: "cert.atscheck.test", spki: "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=")
        let rejected = try CLI.run(base + ["--plist", bad, "--format", "json"])
        #expect(rejected.status == 1, "\(rejected.stdout)")
        let findings = ((rejected.json as? [String: Any])?["findings"] as? [[String: Any]]) ?? []
        #expect(findings.contains { $0["rule"] as? String == "pins.rejected" }, "\(findings)")
    }

    @Test(
        "real chains (x509-limbo's online cases): Apple's store and CT log list accept google.com's, not before its SCTs"
    )
    func realWorldChain() throws {
        // A chain no one here made, with real SCTs, judged with the bundled Apple store and log list.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let chain = root.appendingPathComponent("Tests/Conformance/limbo/online__google.com/chain.pem").path
        let later = try CLI.run([
            "cert", chain, "--host", "google.com", "--at", "2026-02-04T08:36:39Z", "--format", "json",
        ])
        #expect(later.status == 0, "\(later.stdout)")
        let endpoint = try endpoint(later.json)
        let certificate = try #require(endpoint["certificate"] as? [String: Any])
        #expect(certificate["anchor"] as? String == "system")
        let scts = ((certificate["transparency"] as? [String: Any])?["scts"] as? [[String: Any]]) ?? []
        #expect(scts.count == 2 && scts.allSatisfy { $0["signature"] as? String == "valid" }, "\(scts)")
        // limbo's own validation time is a second after notBefore, before the SCTs were issued: Apple does not count
        // an SCT from the future.
        let early = try CLI.run(["cert", chain, "--host", "google.com", "--at", "2026-02-02T08:36:39Z"])
        #expect(early.status == 1)
        #expect(early.stdout.contains("after the verification time") && early.stdout.contains("[trust.ct]"))
        #expect(try CLI.run(["cert", chain, "--host", "www.example.com", "--at", "2026-02-04T08:36:39Z"]).status == 1)
    }

    @Test("every output format renders a failing chain, with the same exit status; the SARIF validates")
    func everyFormat() throws {
        let leaf = try Self.pki.leaf(.leaf("cert.atscheck.test"))
        let chain = try Self.file(TestCertificate.pemBundle([leaf, Self.pki.intermediate]))
        let base = [
            "cert", chain, "--host", "other.atscheck.test", "--trust-store", "none", "--ca-file", try Self.rootFile,
        ]
        for format in ["text", "json", "jsonl", "sarif", "junit", "markdown", "github", "codeclimate"] {
            let run = try CLI.run(base + ["--format", format])
            #expect(run.status == 1, "\(format): \(run.stderr)")
            #expect(run.stdout.contains("trust.hostname"), "\(format): \(run.stdout.prefix(400))")
            if format == "sarif" {
                let checked = try SARIFSchemaValidator.validate(run.stdout)
                #expect(checked.ok, "\(checked.output)")
                #expect(GitHubSARIFRules.violations(run.stdout).isEmpty, "\(GitHubSARIFRules.violations(run.stdout))")
                // GitHub code scanning refuses a file with a result that has no physical location: each is at the
                // chain file.
                let runs = (run.json as? [String: Any])?["runs"] as? [[String: Any]]
                let results = runs?.first?["results"] as? [[String: Any]] ?? []
                #expect(!results.isEmpty)
                for result in results {
                    let location =
                        (result["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                    let uri = (location?["artifactLocation"] as? [String: Any])?["uri"] as? String
                    #expect(uri == "file://" + chain, "\(result)")
                }
            }
        }
    }
}
