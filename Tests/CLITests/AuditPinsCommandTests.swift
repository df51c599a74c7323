import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `atscheck audit` pin checks through the real binary.
@Suite("atscheck audit pins (CLI)", .serialized)
struct AuditPinsCommandTests {
    static let host = "api.cli-audit-pins.atscheck.test"

    @Test("a malformed pins: file exits 65 with FILE:LINE, before anything is scanned")
    func malformedPins() throws {
        let dir = TestScratch.file("atscheck-cli-audit-pins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "{\"domains\": {\n  \"\(Self.host)\": {\"pins\": [1,\n}\n".write(
            toFile: dir + "/bad.json", atomically: true, encoding: .utf8)
        try "<plist version=\"1.0\"><dict/></plist>".write(
            toFile: dir + "/Info.plist", atomically: true, encoding: .utf8)
        // Port 1 on loopback: were it scanned, the run would end in 2, not 65.
        try """
        endpoints:
          - url: https://\(Self.host):1
            resolve: 127.0.0.1
            pins: bad.json
            library: trustkit
        """.write(toFile: dir + "/endpoints.yaml", atomically: true, encoding: .utf8)
        let result = try CLI.run([
            "audit", "--plist", dir + "/Info.plist", "--endpoints", dir + "/endpoints.yaml", "--timeout", "0.5",
        ])
        #expect(result.status == 65, "\(result.stderr)")
        #expect(result.stderr.contains(dir + "/bad.json:3"), "\(result.stderr)")
        #expect(result.stderr.split(separator: "\n").count == 1)
        #expect(result.stdout.isEmpty)
    }

    @Test("an NSPinnedDomains rejection exits 1; the JSON carries the evaluation beside exceptionDebt")
    func rejectionJSON() throws {
        let server = try TestTLSServer(
            .modern(chain: TestPKI.shared.chain(for: try TestPKI.shared.leaf(.leaf(Self.host)))))
        defer { server.stop() }
        let ca = try CLI.temporaryFile(TestPKI.shared.rootPEM, suffix: ".pem")
        let plist = try CLI.temporaryFile(
            """
            <plist version="1.0"><dict>
            <key>NSAppTransportSecurity</key><dict>
            <key>NSPinnedDomains</key><dict>
            <key>\(Self.host)</key><dict>
            <key>NSPinnedLeafIdentities</key><array><dict>
            <key>SPKI-SHA256-BASE64</key><string>YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=</string>
            </dict></array></dict></dict></dict></dict></plist>
            """, suffix: ".plist")
        let endpoints = try CLI.temporaryFile("https://\(Self.host):\(server.port)\n", suffix: ".txt")
        let result = try CLI.run([
            "audit", "--plist", plist, "--endpoints", endpoints, "--ca-file", ca,
            "--resolve", "\(Self.host):\(server.port):127.0.0.1", "--format", "json",
        ])
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stderr.contains("\(plist):4 [pins.rejected]"), "\(result.stderr)")
        let root = try #require(result.json as? [String: Any], "\(result.stdout)")
        #expect(root["exceptionDebt"] is [Any])
        let pins = try #require(root["pins"] as? [[String: Any]])
        #expect(pins.count == 1)
        #expect(pins.first?["origin"] as? String == "NSPinnedDomains")
        #expect(pins.first?["keyPath"] as? String == "NSAppTransportSecurity.NSPinnedDomains.\(Self.host)")
        let evaluation = ((pins.first?["result"] as? [String: Any])?["evaluation"]) as? [String: Any]
        #expect(evaluation?["verdict"] as? String == "reject")
        #expect(evaluation?["result"] as? String == "pin-mismatch")
        let findings = try #require(root["findings"] as? [[String: Any]])
        #expect(findings.contains { $0["rule"] as? String == "pins.rejected" && $0["line"] as? Int == 4 })
    }
}
