import Foundation
import Reporting
import TLSModel
import Testing

/// The pins renderings: control characters from input are escaped; every format carries the verdicts.
@Suite("Pins renderers")
struct PinsRendererTests {
    static func report(host: String) -> PinCheckReport {
        let step = PinStep("system trust", .failed, "fails for \(host)")
        let finding = Finding(rule: RuleID.Pins.rejected, severity: .error, message: "rejects \(host)")
        let debug = PinEvaluation(
            library: PinLibrary(rawValue: "afnetworking"), host: host,
            options: [PinOption("allowInvalidCertificates", "YES")], verdict: .accept,
            result: "accepted", steps: [PinStep("system trust", .skipped, "skipped")],
            matches: [PinMatch(pin: "pin", kind: .certificate, position: 0, role: "leaf", subject: "CN=\(host)")],
            pinMatched: true)
        let release = PinEvaluation(
            library: PinLibrary(rawValue: "afnetworking"), host: host,
            options: [PinOption("allowInvalidCertificates", "NO")], verdict: .reject,
            result: "system-trust-failed", steps: [step], findings: [finding])
        let risk = Finding(rule: RuleID.Pins.debugReleaseDiffers, severity: .warning, message: "debug accepts \(host)")
        return PinCheckReport(
            library: PinLibrary(rawValue: "afnetworking"), pinFiles: ["Pins/\(host).cer"],
            results: [
                PinCheckResult(
                    target: "\(host):443", host: host, port: 443, address: nil, status: .completed, error: nil,
                    evaluation: debug, release: release, risks: [risk]),
                PinCheckResult(
                    target: "down:443", host: "down", port: 443, address: nil, status: .unreachable, error: "refused"),
            ], findings: [])
    }

    @Test("text escapes control characters and shows debug next to release")
    func text() {
        let out = PinsTextRenderer().render(Self.report(host: "evil\u{1B}[31m.example"))
        #expect(!out.contains("\u{1B}"))
        #expect(out.contains("evil\\u{1B}[31m.example"))
        #expect(out.range(of: #"verdict\s+ACCEPT\s+REJECT"#, options: .regularExpression) != nil)
        #expect(out.range(of: #"system trust\s+skipped\s+failed"#, options: .regularExpression) != nil)
        #expect(out.contains("1 accepted, 0 rejected, 1 could not be checked"))
    }

    @Test("JUnit, Markdown and SARIF carry both verdicts and the unreachable target")
    func otherFormats() throws {
        let report = Self.report(host: "api.example.com")
        let junit = PinsFormats.junit(report)
        #expect(junit.contains("name=\"pin policy (release build)\""))
        #expect(junit.contains("<failure message=\"rejects api.example.com\""))
        #expect(junit.contains("<error message=\"refused\""))
        let markdown = PinsFormats.markdown(report)
        #expect(markdown.contains("| `api.example.com:443` | ACCEPT | accepted | REJECT (system-trust-failed) |"))
        let sarif = try #require(
            try JSONSerialization.jsonObject(with: Data(try PinsFormats.sarif(report).utf8)) as? [String: Any])
        let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
        #expect(
            Set(results.compactMap { $0["ruleId"] as? String }) == ["pins.debug.release-differs", "scan.unreachable"])
    }
}
