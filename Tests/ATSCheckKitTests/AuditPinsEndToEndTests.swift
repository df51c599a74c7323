import ATSCheckKit
import CertificateTrust
import Foundation
import Judging
import Reporting
import TLSModel
import TLSTestSupport
import Testing

/// `atscheck audit` checks pins (issue 9, "Pins in the CI gate"): the plist's NSPinnedDomains against each
/// covered endpoint's live path, and the pin check an endpoint-list entry names, against a real server.
@Suite("Audit pin checks end to end (loopback only)")
struct AuditPinsEndToEndTests {
    /// Under a TLD in TrustKit's public suffix list: TrustKit refuses to pin a name under `.test`.
    static let domain = "pins-audit.example.com"
    static func host(_ label: String) -> String { "\(label).\(domain)" }
    /// A well-formed pin that matches nothing (the SHA-256 of a phrase).
    static let spare = "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="

    /// The 1-based line of the first line of `text` containing `needle`.
    static func line(of needle: String, in text: String) -> Int? {
        text.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(needle) }.map { $0 + 1 }
    }

    static func pinnedEntry(_ key: String, includesSubdomains: Bool = false, leaf: [String]? = nil, ca: [String]? = nil)
        -> String
    {
        func identities(_ name: String, _ pins: [String]?) -> String {
            guard let pins else { return "" }
            let items = pins.map {
                "\t\t\t\t\t<dict>\n\t\t\t\t\t\t<key>SPKI-SHA256-BASE64</key>\n\t\t\t\t\t\t<string>\($0)</string>\n\t\t\t\t\t</dict>\n"
            }
            return "\t\t\t\t<key>\(name)</key>\n\t\t\t\t<array>\n\(items.joined())\t\t\t\t</array>\n"
        }
        let includes = includesSubdomains ? "\t\t\t\t<key>NSIncludesSubdomains</key>\n\t\t\t\t<true/>\n" : ""
        return
            "\t\t\t<key>\(key)</key>\n\t\t\t<dict>\n\(includes)\(identities("NSPinnedLeafIdentities", leaf))\(identities("NSPinnedCAIdentities", ca))\t\t\t</dict>\n"
    }

    @Test(
        "NSPinnedDomains and endpoint-list pin checks: findings at the plist and list lines, in JSON, SARIF and JUnit")
    func endToEnd() async throws {
        let pki = TestPKI.shared
        var spec = CertificateSpec.leaf(Self.host("api"))
        spec.dnsNames = ["api", "cdn", "eu.img", "tk", "af"].map(Self.host)
        let server = try TestTLSServer(.modern(chain: pki.chain(for: try pki.leaf(spec))))
        defer { server.stop() }
        let intermediate = try CertificateParsing.facts(der: pki.intermediate.der).spkiSHA256
        var wrongSpec = CertificateSpec.leaf("wrong.\(Self.domain)")
        wrongSpec.keySlot = "audit-pins-wrong"
        let wrong = try TestCertificate.selfSigned(wrongSpec)

        let dir = TestScratch.file("atscheck-audit-pins")
        try FileManager.default.createDirectory(atPath: dir + "/pins", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try pki.rootPEM.write(toFile: dir + "/ca.pem", atomically: true, encoding: .utf8)
        try wrong.der.write(to: URL(fileURLWithPath: dir + "/pins/wrong.cer"))
        try """
        {"domains": {"\(Self.host("tk"))": {"pins": ["\(intermediate)", "\(Self.spare)"]}}}
        """.write(toFile: dir + "/pins/tk.json", atomically: true, encoding: .utf8)

        // api: CA pin on the intermediate (+ a backup) → accepted; cdn: a leaf pin matching nothing → rejected;
        // img: includes subdomains, covers eu.img; retired: no endpoint.
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSPinnedDomains</key>
            \t\t<dict>

            """
            + Self.pinnedEntry(Self.host("api"), ca: [intermediate, Self.spare])
            + Self.pinnedEntry(Self.host("cdn"), leaf: [Self.spare])
            + Self.pinnedEntry(Self.host("img"), includesSubdomains: true, ca: [intermediate, Self.spare])
            + Self.pinnedEntry(Self.host("retired"), ca: [intermediate, Self.spare])
            + "\t\t</dict>\n\t</dict>\n</dict>\n</plist>\n"
        let plistFile = dir + "/Info.plist"
        try plist.write(toFile: plistFile, atomically: true, encoding: .utf8)
        let port = server.port
        let endpoints = """
            endpoints:
              - url: https://\(Self.host("api")):\(port)
                resolve: 127.0.0.1
              - url: https://\(Self.host("cdn")):\(port)
                resolve: 127.0.0.1
              - url: https://\(Self.host("eu.img")):\(port)
                resolve: 127.0.0.1
              - url: https://\(Self.host("tk")):\(port)
                resolve: 127.0.0.1
                pins: pins/tk.json
                library: trustkit
              - url: https://\(Self.host("af")):\(port)
                resolve: 127.0.0.1
                pins: pins/wrong.cer
                library: afnetworking
                mode: certificate
            """
        let endpointsFile = dir + "/endpoints.yaml"
        try endpoints.write(toFile: endpointsFile, atomically: true, encoding: .utf8)

        var settings = ScanSettings()
        settings.timeout = 3
        settings.caFiles = [dir + "/ca.pem"]
        settings.useSystemTrustStore = false
        let result = try await AuditRun.run(plistPath: plistFile, endpointsPath: endpointsFile, settings: settings)

        let cdnLine = try #require(Self.line(of: "<key>\(Self.host("cdn"))</key>", in: plist))
        let retiredLine = try #require(Self.line(of: "<key>\(Self.host("retired"))</key>", in: plist))
        #expect(result.report.endpoints.allSatisfy { $0.profile.status == .completed })
        // §3.3: the NSPinnedDomains rejection is cdn's ATS verdict; the AFNetworking check of the list is the app's
        // own code, not ATS, and leaves its endpoint's verdict alone.
        for endpoint in result.report.endpoints {
            let pinnedAway = endpoint.profile.host == Self.host("cdn")
            #expect(endpoint.ats.verdict == (pinnedAway ? .fail : .pass), "\(endpoint.profile.target)")
        }
        #expect(result.report.summary.failed == 1)

        // Rejections: cdn at its plist key, af at its entry (line 12), nothing else.
        let rejected = result.report.findings.filter { $0.rule == RuleID.Pins.rejected }
        #expect(rejected.map(\.severity) == [.error, .error], "\(rejected)")
        let cdn = try #require(rejected.first { $0.file == plistFile })
        #expect(cdn.line == cdnLine)
        #expect(cdn.keyPath == "NSAppTransportSecurity.NSPinnedDomains.\(Self.host("cdn"))")
        #expect(cdn.message.contains("\(Self.host("cdn")):\(port)"))
        let af = try #require(rejected.first { $0.file == endpointsFile })
        #expect(af.line == 12)
        #expect(af.message.contains("afnetworking"))
        // Outage warnings of the evaluator, at the same places: cdn and af each have a single pin; none-match
        // (an error in pins check's catalogue) is a warning beside the rejection.
        let backup = result.report.findings.filter { $0.rule == RuleID.Pins.backupMissing }
        #expect(backup.map(\.line) == [cdnLine, 12])
        #expect(backup.map(\.severity) == [.warning, .warning])
        #expect(
            result.report.findings.filter { $0.rule == RuleID.Pins.noneMatch }.map(\.severity) == [.warning, .warning])
        #expect(
            !result.report.findings.contains {
                $0.rule.rawValue.hasPrefix("pins.") && $0.severity == .error && $0.rule != RuleID.Pins.rejected
            })
        // The pinned domain without an endpoint is a note; img is covered through eu.img.
        let unused = result.report.findings.filter { $0.rule == RuleID.Audit.pinnedDomainNoEndpoint }
        #expect(unused.map(\.keyPath) == ["NSAppTransportSecurity.NSPinnedDomains.\(Self.host("retired"))"])
        #expect(unused.map(\.severity) == [.note])
        #expect(unused.first?.line == retiredLine)
        #expect(result.exitStatus == .policyFailure)

        // The evaluations, per endpoint, in list order.
        #expect(result.pins.map(\.endpoint) == ["api", "cdn", "eu.img", "tk", "af"].map { "\(Self.host($0)):\(port)" })
        #expect(
            result.pins.map(\.origin) == [.pinnedDomains, .pinnedDomains, .pinnedDomains, .endpointList, .endpointList])
        #expect(result.pins.map { $0.result.evaluation?.verdict } == [.accept, .reject, .accept, .accept, .reject])
        #expect(result.pins[2].domains == [Self.host("img")])
        #expect(result.pins[3].library == .trustkit)
        #expect(result.pins[3].pins == dir + "/pins/tk.json")
        #expect(result.pins[3].source == SourceLocation(file: endpointsFile, line: 8))
        #expect(result.pins[0].result.evaluation?.matches.first?.position == 1)

        // JSON carries them beside exceptionDebt.
        let json =
            try JSONSerialization.jsonObject(with: JSONEncoder().encode(AuditJSON(result: result))) as? [String: Any]
        let pinsJSON = try #require(json?["pins"] as? [[String: Any]])
        #expect(pinsJSON.count == 5)
        #expect(
            ((pinsJSON[1]["result"] as? [String: Any])?["evaluation"] as? [String: Any])?["verdict"] as? String
                == "reject")
        #expect(json?["exceptionDebt"] != nil)

        // SARIF locations: the plist line and the endpoint-list line.
        let sarifText = try SARIFRenderer.render(
            result.report, catalogue: .atscheck, plistFile: plistFile, endpointsFile: endpointsFile)
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(sarifText.utf8)) as? [String: Any])
        let results = try #require(((sarif["runs"] as? [[String: Any]])?.first?["results"]) as? [[String: Any]])
        let places = results.filter { $0["ruleId"] as? String == "pins.rejected" }.compactMap { r -> String? in
            guard let physical = (r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any],
                let uri = (physical["artifactLocation"] as? [String: Any])?["uri"] as? String,
                let line = (physical["region"] as? [String: Any])?["startLine"] as? Int
            else { return nil }
            return "\((uri as NSString).lastPathComponent):\(line)"
        }
        #expect(Set(places) == ["Info.plist:\(cdnLine)", "endpoints.yaml:12"], "\(places)")
        #expect(results.first { $0["ruleId"] as? String == "pins.rejected" }?["level"] as? String == "error")

        // JUnit: failures naming file:line; Markdown lists them.
        let junit = JUnitRenderer.render(result.report, catalogue: .atscheck)
        #expect(junit.contains("\(plistFile):\(cdnLine): error:"))
        #expect(junit.contains("\(endpointsFile):12: error:"))
        #expect(junit.contains("type=\"pins.rejected\""))
        #expect(MarkdownRenderer.render(result.report, catalogue: .atscheck).contains("pins.rejected"))
    }
}
