import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `scan --plist` (and `scan --profile … --plist`) checks the plist's NSPinnedDomains against each covered host's
/// served chain, as ATS does: a chain its pins reject is a connection the app cannot make. Real binary, one
/// in-process server answering for three names, a real plist.
@Suite("atscheck scan --plist: NSPinnedDomains (CLI)", .serialized)
struct ScanPinnedDomainsCommandTests {
    static let domain = "scan-pins.atscheck.test"
    static func host(_ label: String) -> String { "\(label).\(domain)" }
    /// A well-formed pin that matches nothing (the SHA-256 of a phrase).
    static let spare = "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="

    /// The server (its certificate names good, bad and free), the CA file, and a plist pinning `good` to the
    /// served intermediate (plus a backup) and `bad` to a leaf key it does not serve; `free` is not pinned.
    final class Fixture {
        let server: TestTLSServer
        let dir = TestScratch.file("atscheck-cli-scan-pins")
        let ca: String
        let plist: String
        /// The plist lines of the two pinned-domain keys.
        let badLine = 6
        let goodLine = 11

        init() throws {
            let pki = TestPKI.shared
            var spec = CertificateSpec.leaf(ScanPinnedDomainsCommandTests.host("good"))
            spec.dnsNames = ["good", "bad", "free"].map(ScanPinnedDomainsCommandTests.host)
            server = try TestTLSServer(.modern(chain: pki.chain(for: try pki.leaf(spec))))
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            ca = dir + "/ca.pem"
            try pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
            // The served intermediate's SPKI pin, as the scan reports it.
            let probe = try CLI.run(
                ["scan"] + Self.targets(["free"], port: server.port) + [
                    "--ca-file", ca, "--ats-only", "--format", "json",
                ])
            let chain =
                ((probe.json as? [String: Any])?["endpoints"] as? [[String: Any]])?.first
                .flatMap { ($0["certificate"] as? [String: Any])?["chain"] as? [[String: Any]] } ?? []
            let intermediate = try #require(
                chain.count == 2 ? chain[1]["spkiSHA256"] as? String : nil, "\(probe.stderr)")
            let spare = ScanPinnedDomainsCommandTests.spare
            plist = dir + "/Info.plist"
            try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
            <key>NSAppTransportSecurity</key>
            <dict>
            <key>NSPinnedDomains</key><dict>
            <key>\(ScanPinnedDomainsCommandTests.host("bad"))</key>
            <dict><key>NSPinnedLeafIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>\(spare)</string></dict>
            </array></dict>

            <key>\(ScanPinnedDomainsCommandTests.host("good"))</key>
            <dict><key>NSPinnedCAIdentities</key><array>
            <dict><key>SPKI-SHA256-BASE64</key><string>\(intermediate)</string></dict>
            <dict><key>SPKI-SHA256-BASE64</key><string>\(spare)</string></dict>
            </array></dict>
            </dict></dict></dict></plist>
            """.write(toFile: plist, atomically: true, encoding: .utf8)
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: dir)
        }

        /// Targets for the named hosts, with `--resolve` to the server.
        static func targets(_ labels: [String], port: Int) -> [String] {
            labels.flatMap { label in
                let host = ScanPinnedDomainsCommandTests.host(label)
                return ["\(host):\(port)", "--resolve", "\(host):\(port):127.0.0.1"]
            }
        }

        func targets(_ labels: [String]) -> [String] { Self.targets(labels, port: server.port) }
        func target(_ label: String) -> String { "\(ScanPinnedDomainsCommandTests.host(label)):\(server.port)" }
    }

    static func findings(_ result: CLI.Result) -> [[String: Any]] {
        (result.json as? [String: Any])?["findings"] as? [[String: Any]] ?? []
    }

    static func rejections(_ result: CLI.Result) -> [[String: Any]] {
        findings(result).filter { $0["rule"] as? String == "pins.rejected" }
    }

    @Test("a pinned host whose served chain matches none of its pins fails, in every format, exit 1")
    func mismatchFails() throws {
        let f = try Fixture()
        let reports = ["text", "sarif", "junit", "markdown", "github", "codeclimate", "jsonl"].map {
            ($0, f.dir + "/report.\($0)")
        }
        let result = try CLI.run(
            ["scan"] + f.targets(["bad", "good", "free"])
                + ["--plist", f.plist, "--ca-file", f.ca, "--format", "json"]
                + reports.flatMap { ["--report", "\($0.0)=\($0.1)"] })
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains(f.target("bad")), "\(result.stderr)")
        // §3.3 Pinning details (NSPinnedDomains): ATS adds the pins to the host's SSL policy, so their rejection is
        // the endpoint's ATS verdict everywhere: JSON, summary, headline; the finding stays at the pinned domain.
        let json = result.json as? [String: Any]
        let endpoints = json?["endpoints"] as? [[String: Any]] ?? []
        #expect(
            endpoints.compactMap { ($0["ats"] as? [String: Any])?["verdict"] as? String } == ["fail", "pass", "pass"])
        let violations = (endpoints.first?["ats"] as? [String: Any])?["violations"] as? [[String: Any]] ?? []
        #expect(violations.map { $0["rule"] as? String } == ["pins.rejected"])
        let counts = json?["summary"] as? [String: Any]
        #expect(counts?["failed"] as? Int == 1 && counts?["passed"] as? Int == 2, "\(counts ?? [:])")
        let text = try CLI.run(["scan"] + f.targets(["bad"]) + ["--plist", f.plist, "--ca-file", f.ca, "--ats-only"])
        #expect(text.stdout.contains("ATS FAIL"), "\(text.stdout)")
        #expect(!text.stdout.contains("ATS PASS"), "\(text.stdout)")
        let rejected = try #require(Self.rejections(result).first)
        #expect(Self.rejections(result).count == 1)
        #expect(rejected["severity"] as? String == "error")
        #expect(rejected["file"] as? String == f.plist)
        #expect(rejected["line"] as? Int == f.badLine)
        #expect(rejected["keyPath"] as? String == "NSAppTransportSecurity.NSPinnedDomains.\(Self.host("bad"))")
        let message = rejected["message"] as? String ?? ""
        #expect(message.hasPrefix("\(f.target("bad")): NSPinnedDomains '\(Self.host("bad"))' rejects it"), "\(message)")
        // Neither the matching host nor the one not pinned has a pin finding (they would start with the endpoint).
        for label in ["good", "free"] {
            #expect(!Self.findings(result).contains { ($0["message"] as? String ?? "").hasPrefix(f.target(label)) })
        }
        #expect(
            Self.findings(result).filter { ($0["rule"] as? String ?? "").hasPrefix("pins.") }.allSatisfy {
                ($0["message"] as? String ?? "").hasPrefix(f.target("bad")) && $0["line"] as? Int == f.badLine
            })
        for (format, path) in reports {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.contains("pins.rejected"), "\(format)")
            #expect(text.contains(Self.host("bad")), "\(format)")
        }
        // One problem, one alert: the violation repeats the finding and is not a second SARIF result.
        let sarif = try JSONSerialization.jsonObject(
            with: Data(contentsOf: URL(fileURLWithPath: f.dir + "/report.sarif")))
        let results = ((sarif as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.filter { $0["ruleId"] as? String == "pins.rejected" }.count == 1)
        // The streamed JSON Lines (nothing else written) carry it in their summary and end the same way.
        let streamed = try CLI.run(
            ["scan"] + f.targets(["bad", "good"]) + [
                "--plist", f.plist, "--ca-file", f.ca, "--ats-only", "--format", "jsonl",
            ])
        #expect(streamed.status == 1, "\(streamed.stderr)")
        let summary = streamed.stdout.split(separator: "\n").last.map(String.init) ?? ""
        #expect(summary.contains("pins.rejected") && summary.contains(Self.host("bad")), "\(summary)")
        // Without the plist nothing is pinned: the same scan passes.
        let unpinned = try CLI.run(
            ["scan"] + f.targets(["bad"]) + ["--ca-file", f.ca, "--ats-only", "--format", "json"])
        #expect(unpinned.status == 0, "\(unpinned.stderr)")
        #expect(Self.rejections(unpinned).isEmpty)
    }

    @Test("a matching pin passes and a host not pinned is unaffected, with --ca-file or an entry's caFile")
    func matchPasses() throws {
        let f = try Fixture()
        let result = try CLI.run(
            ["scan"] + f.targets(["good", "free"]) + [
                "--plist", f.plist, "--ca-file", f.ca, "--ats-only", "--format", "json",
            ])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!Self.findings(result).contains { $0["severity"] as? String == "error" }, "\(Self.findings(result))")
        #expect(!Self.findings(result).contains { ($0["rule"] as? String ?? "").hasPrefix("pins.") })
        // The pins are evaluated with the anchors the endpoint's own scan trusted: here its entry's caFile.
        let list = f.dir + "/endpoints.yaml"
        try """
        endpoints:
          - url: https://\(f.target("good"))
            resolve: 127.0.0.1
            caFile: ca.pem
        """.write(toFile: list, atomically: true, encoding: .utf8)
        let entry = try CLI.run(["scan", "--targets", list, "--plist", f.plist, "--ats-only", "--format", "json"])
        #expect(entry.status == 0, "\(entry.stderr)")
        #expect(Self.rejections(entry).isEmpty, "\(Self.findings(entry))")
    }

    @Test("--profile with --plist judges the saved chains as the live scan does")
    func savedProfile() throws {
        let f = try Fixture()
        let saved = f.dir + "/profiles.json"
        let scanned = try CLI.run(
            ["scan"] + f.targets(["bad", "good", "free"])
                + ["--ca-file", f.ca, "--ats-only", "--format", "json", "--save-profile", saved])
        #expect(scanned.status == 0, "\(scanned.stderr)")
        let live = try CLI.run(
            ["scan"] + f.targets(["bad", "good", "free"])
                + ["--plist", f.plist, "--ca-file", f.ca, "--ats-only", "--format", "json"])
        let again = try CLI.run(["scan", "--profile", saved, "--plist", f.plist, "--ca-file", f.ca, "--format", "json"])
        #expect(again.status == 1, "\(again.stderr)")
        let rejected = try #require(Self.rejections(again).first)
        #expect(Self.rejections(again).count == 1)
        #expect(rejected["line"] as? Int == f.badLine)
        #expect(rejected["message"] as? String == Self.rejections(live).first?["message"] as? String)
        let text = try CLI.run(["scan", "--profile", saved, "--plist", f.plist, "--ca-file", f.ca])
        #expect(text.status == 1)
        #expect(text.stdout.contains("[pins.rejected]"), "\(text.stdout)")
        // The saved profile alone, or under a plist that pins nothing it holds, passes (the saved chains are verified
        // again, so the root is given again).
        #expect(try CLI.run(["scan", "--profile", saved, "--ca-file", f.ca, "--format", "json"]).status == 0)
        let other = f.dir + "/Other.plist"
        try """
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
        <key>elsewhere.example.com</key><dict><key>NSPinnedLeafIdentities</key><array>
        <dict><key>SPKI-SHA256-BASE64</key><string>\(Self.spare)</string></dict></array></dict>
        </dict></dict></dict></plist>
        """.write(toFile: other, atomically: true, encoding: .utf8)
        let unrelated = try CLI.run([
            "scan", "--profile", saved, "--plist", other, "--ca-file", f.ca, "--format", "json",
        ])
        #expect(unrelated.status == 0, "\(unrelated.stderr)")
        #expect(Self.rejections(unrelated).isEmpty)
    }
}
