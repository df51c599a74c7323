import ATSCheckKit
import ATSPolicy
import Foundation
import Judging
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

@Suite("Audit end to end against in-process servers (loopback only)")
struct AuditEndToEndTests {
    @Test("a plist that needs, lacks and over-grants exceptions, scanned through the real prober")
    func endToEnd() async throws {
        let pki = TestPKI.shared
        let modern = try TestTLSServer(.modern(chain: pki.chain(for: pki.leaf(.leaf("modern.audit.test")))))
        defer { modern.stop() }
        let legacy = try TestTLSServer(
            .only(
                .tls1_0, cipherList: "ECDHE-RSA-AES128-SHA", chain: pki.chain(for: pki.leaf(.leaf("legacy.audit.test")))
            ))
        defer { legacy.stop() }
        let rsa = try TestTLSServer(
            .only(.tls1_2, cipherList: "AES128-GCM-SHA256", chain: pki.chain(for: pki.leaf(.leaf("rsa.audit.test")))))
        defer { rsa.stop() }
        let oldAPI = try TestTLSServer(
            .only(
                .tls1_0, cipherList: "ECDHE-RSA-AES128-SHA", chain: pki.chain(for: pki.leaf(.leaf("oldapi.audit.test")))
            ))
        defer { oldAPI.stop() }

        let dir = TestScratch.file("atscheck-audit")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try pki.rootPEM.write(toFile: dir + "/ca.pem", atomically: true, encoding: .utf8)

        // modern: over-granted (unneeded TLSv1.0); rsa: needed RFS=NO plus an unneeded AllowsInsecureHTTPLoads;
        // oldapi: needed TLSv1.0; legacy: no entry (missing); retired: no endpoint.
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \t<key>NSAppTransportSecurity</key>
            \t<dict>
            \t\t<key>NSExceptionDomains</key>
            \t\t<dict>
            \t\t\t<key>modern.audit.test</key>
            \t\t\t<dict>
            \t\t\t\t<key>NSExceptionMinimumTLSVersion</key>
            \t\t\t\t<string>TLSv1.0</string>
            \t\t\t</dict>
            \t\t\t<key>rsa.audit.test</key>
            \t\t\t<dict>
            \t\t\t\t<key>NSExceptionRequiresForwardSecrecy</key>
            \t\t\t\t<false/>
            \t\t\t\t<key>NSExceptionAllowsInsecureHTTPLoads</key>
            \t\t\t\t<true/>
            \t\t\t</dict>
            \t\t\t<key>oldapi.audit.test</key>
            \t\t\t<dict>
            \t\t\t\t<key>NSExceptionMinimumTLSVersion</key>
            \t\t\t\t<string>TLSv1.0</string>
            \t\t\t</dict>
            \t\t\t<key>retired.audit.test</key>
            \t\t\t<dict/>
            \t\t</dict>
            \t</dict>
            </dict>
            </plist>
            """
        try plist.write(toFile: dir + "/Info.plist", atomically: true, encoding: .utf8)
        let endpoints = """
            # every endpoint is on 127.0.0.1; the names drive SNI, certificates and the plist lookup
            endpoints:
              - url: https://modern.audit.test:\(modern.port)
                resolve: 127.0.0.1
                caFile: ca.pem
              - url: https://legacy.audit.test:\(legacy.port)
                resolve: 127.0.0.1
                caFile: ca.pem
              - url: https://rsa.audit.test:\(rsa.port)
                resolve: 127.0.0.1
                caFile: ca.pem
              - url: https://oldapi.audit.test:\(oldAPI.port)
                resolve: 127.0.0.1
                caFile: ca.pem
              - http://plain.audit.test/feed   # never contacted: judged from the plist alone
            """
        try endpoints.write(toFile: dir + "/endpoints.yaml", atomically: true, encoding: .utf8)

        var settings = ScanSettings()
        settings.timeout = 3
        settings.concurrency = 4
        settings.useSystemTrustStore = false
        let result = try await AuditRun.run(
            plistPath: dir + "/Info.plist", endpointsPath: dir + "/endpoints.yaml", settings: settings, for: .newest,
            baselinePath: nil, now: Date())

        let byHost = Dictionary(uniqueKeysWithValues: result.report.endpoints.map { ($0.profile.host, $0) })
        for host in ["modern.audit.test", "legacy.audit.test", "rsa.audit.test", "oldapi.audit.test"] {
            #expect(byHost[host]?.profile.status == .completed, "\(host): \(byHost[host]?.profile.error ?? "")")
            #expect(byHost[host]?.profile.address == "127.0.0.1")
            #expect(byHost[host]?.profile.certificate?.trusted == true, "\(host)")
        }
        #expect(byHost["modern.audit.test"]?.ats.verdict == .pass)
        #expect(byHost["legacy.audit.test"]?.ats.verdict == .fail)
        #expect(byHost["rsa.audit.test"]?.ats.verdict == .pass)
        #expect(byHost["oldapi.audit.test"]?.ats.verdict == .pass)
        #expect(byHost["plain.audit.test"]?.ats.verdict == .fail)
        #expect(byHost["plain.audit.test"]?.profile.handshakes == 0)
        #expect(result.report.endpoints.map(\.source?.line) == [3, 6, 9, 12, 15])

        func find(_ rule: RuleID) -> [Finding] { result.report.findings.filter { $0.rule == rule } }
        let endpointsFile = dir + "/endpoints.yaml"
        let plistFile = dir + "/Info.plist"
        // Missing: legacy needs TLSv1.0, reported at its endpoint line.
        let missing = find(AuditRuleID.exceptionMissing)
        #expect(missing.count == 1)
        #expect(missing.first?.file == endpointsFile)
        #expect(missing.first?.line == 6)
        #expect(missing.first?.message.contains("<key>legacy.audit.test</key>") == true)
        #expect(missing.first?.message.contains("TLSv1.0") == true)
        // Unneeded: modern passes without its entry (plist line 9).
        let unneeded = find(AuditRuleID.exceptionUnneeded)
        #expect(unneeded.map(\.keyPath) == ["NSAppTransportSecurity.NSExceptionDomains.modern.audit.test"])
        #expect(unneeded.first?.file == plistFile)
        #expect(unneeded.first?.line == 9)
        // Broader: rsa needs only RFS = NO (AllowsInsecureHTTPLoads on plist line 18).
        let broader = find(AuditRuleID.exceptionBroader)
        #expect(
            broader.map(\.keyPath) == [
                "NSAppTransportSecurity.NSExceptionDomains.rsa.audit.test.NSExceptionAllowsInsecureHTTPLoads"
            ])
        #expect(broader.first?.line == 18)
        // No endpoint: retired (plist line 26).
        let unused = find(AuditRuleID.exceptionNoEndpoint)
        #expect(unused.map(\.keyPath) == ["NSAppTransportSecurity.NSExceptionDomains.retired.audit.test"])
        #expect(unused.first?.line == 26)
        // http: blocked, at the endpoint line.
        let http = find(AuditRuleID.endpointHTTP)
        #expect(http.map(\.severity) == [.error])
        #expect(http.first?.line == 15)
        // Nothing about oldapi (its TLSv1.0 entry is exactly what it needs) and no impossible failures.
        #expect(
            !result.report.findings.contains {
                $0.rule.rawValue.hasPrefix("audit.") && ($0.keyPath?.contains("oldapi") ?? false)
            })
        #expect(find(AuditRuleID.endpointFails).isEmpty)
        #expect(Set(result.exceptionDebt.map(\.kind)) == [.missing, .unneeded, .broader, .noEndpoint, .http])
        #expect(result.exitStatus == .policyFailure)
        #expect(result.exitReason?.contains("audit failed") == true)

        // The same audit with a baseline waiving the known debt passes, but for the http endpoint.
        try """
        waivers:
          - rule: audit.exception.missing
            target: legacy.audit.test
            reason: legacy vendor migrates to TLS 1.2 (TICKET-1)
            expires: 2099-12-31
        """.write(toFile: dir + "/baseline.yaml", atomically: true, encoding: .utf8)
        let waived = try await AuditRun.run(
            plistPath: plistFile, endpointsPath: endpointsFile, settings: settings, for: .newest,
            baselinePath: dir + "/baseline.yaml", now: Date())
        #expect(waived.report.findings.filter { $0.severity == .error }.map(\.rule) == [AuditRuleID.endpointHTTP])
    }

    @Test("an unreadable plist or endpoint list is an InputFileError before anything is scanned")
    func badInputs() async throws {
        let dir = TestScratch.file("atscheck-audit-bad")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "<plist><dict><key>x</key></plist>".write(toFile: dir + "/bad.plist", atomically: true, encoding: .utf8)
        try "<plist><dict/></plist>".write(toFile: dir + "/ok.plist", atomically: true, encoding: .utf8)
        try "endpoints: [".write(toFile: dir + "/bad.yaml", atomically: true, encoding: .utf8)
        try "a.audit.test\n".write(toFile: dir + "/ok.txt", atomically: true, encoding: .utf8)
        await #expect(throws: InputFileError.self) {
            try await AuditRun.run(plistPath: dir + "/bad.plist", endpointsPath: dir + "/ok.txt")
        }
        await #expect(throws: InputFileError.self) {
            try await AuditRun.run(plistPath: dir + "/ok.plist", endpointsPath: dir + "/bad.yaml")
        }
        await #expect(throws: InputFileError.self) {
            try await AuditRun.run(
                plistPath: dir + "/ok.plist", endpointsPath: dir + "/ok.txt", baselinePath: dir + "/none.yaml")
        }
    }
}
