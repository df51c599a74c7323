import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

@Suite("nscurl --ats-diagnostics reproduction (§5)")
struct ATSDiagnosticsTests {
    struct Row: Sendable, CustomStringConvertible {
        var description: String
        var profile: ServerProfile
        var os: String = "26.4"
        /// One letter per test: P(ASS), F(AIL), A(MBIGUOUS).
        var results: String
        var status: MinimalException.Status
        var exception: [String: PlistValue]? = nil
    }

    static let h = "api.example.com"
    static let rows: [Row] = [
        Row(
            description: "modern", profile: Fixture.profile(Fixture.modern), results: "PPPPPPPPPPPPPPPP",
            status: .noneNeeded),
        Row(
            description: "TLS 1.0 only", profile: Fixture.profile(Fixture.tls10Only), results: "FPFFFPFFFFFPFFFP",
            status: .exception, exception: ["NSExceptionMinimumTLSVersion": .string("TLSv1.0")]),
        Row(
            description: "RSA key exchange only", profile: Fixture.profile(Fixture.rsaKxOnly),
            results: "FPFFFFPPFPPPFPPP", status: .exception,
            exception: ["NSExceptionRequiresForwardSecrecy": .bool(false)]),
        Row(
            description: "TLS 1.3 only", profile: Fixture.profile(Fixture.tls13Only), results: "PPPPPPPPPPPPPPPP",
            status: .noneNeeded),
        Row(
            description: "ECDHE-CBC-SHA256 only", profile: Fixture.profile(Fixture.cbcSHA256Only),
            results: "APFAAAAPFAAAFPPP", status: .exception,
            exception: [
                "NSExceptionAllowsInsecureHTTPLoads": .bool(true), "NSExceptionRequiresForwardSecrecy": .bool(false),
            ]),
        Row(
            description: "DHE only", profile: Fixture.profile(Fixture.dheOnly), results: "FAFFFFFAFFFFFAAA",
            status: .exception,
            exception: [
                "NSExceptionAllowsInsecureHTTPLoads": .bool(true), "NSExceptionRequiresForwardSecrecy": .bool(false),
            ]),
        Row(
            description: "self-signed",
            profile: Fixture.profile(
                Fixture.modern, leaf: Fixture.cert(selfSigned: true), intermediates: [], trusted: false,
                verifyError: "self-signed certificate"),
            results: "FFFFFFFFFFFFFFFF", status: .impossible),
        Row(
            description: "SHA-1", profile: Fixture.profile(Fixture.modern, leaf: Fixture.cert(hash: "SHA1")),
            results: "FFFFFFFFFFFFFFFF", status: .impossible),
        Row(
            description: "RSA-1024", profile: Fixture.profile(Fixture.modern, leaf: Fixture.cert(bits: 1024)),
            results: "FFFFFFFFFFFFFFFF", status: .impossible),
        Row(
            description: "RSA-1024 on iOS 10",
            profile: Fixture.profile(Fixture.tls12Good, leaf: Fixture.cert(bits: 1024)),
            os: "10", results: "FPFFFPPPPPPPP", status: .exception,
            exception: ["NSExceptionRequiresForwardSecrecy": .bool(false)]),
        Row(
            description: "wrong host",
            profile: Fixture.profile(Fixture.modern, leaf: Fixture.cert(sans: ["www.example.com"])),
            results: "FFFFFFFFFFFFFFFF", status: .impossible),
        Row(
            description: "over-long validity",
            profile: Fixture.profile(
                Fixture.modern, leaf: Fixture.cert(notBefore: AppleDates.utc(2025, 1, 1), days: 500)),
            results: "FFFFFFFFFFFFFFFF", status: .impossible),
        Row(
            description: "modern on iOS 12: 13 tests", profile: Fixture.profile(Fixture.tls12Good), os: "12",
            results: "PPPPPPPPPPPPP", status: .noneNeeded),
        Row(
            description: "TLS 1.3 only on iOS 12: fails until a TLSv1.3 minimum… which 12 cannot offer",
            profile: Fixture.profile(Fixture.tls13Only), os: "12",
            results: "FFFFFFFFFFFFF", status: .impossible),
    ]

    static func run(_ row: Row) -> DiagnosticsReport {
        var profile = row.profile
        profile.certificate?.verifiedAt = Fixture.now
        return ATSDiagnostics.run(
            profile: profile, target: Target(host: h), for: ATSClient(os: AppleOSVersion(string: row.os)!))
    }

    @Test("every PASS/FAIL cell and the minimal exception", arguments: rows)
    func matrix(row: Row) {
        let report = Self.run(row)
        let letters = String(report.tests.map { $0.result.rawValue.first! })
        #expect(letters == row.results)
        #expect(report.tests.map(\.number) == Array(1...row.results.count))
        #expect(report.tests.allSatisfy { ($0.result == .pass) == ($0.reason == nil) })
        #expect(report.minimalException.status == row.status)
        #expect(report.minimalException.dictionary == row.exception.map(PlistValue.dict))
        #expect((report.minimalException.plist != nil) == (row.status == .exception))
    }

    @Test("sections, titles and dictionaries in nscurl's order")
    func titles() throws {
        let report = Self.run(Self.rows[0])
        let t = report.tests
        #expect(t.count == 16)
        #expect(t[0].section == "Default ATS Secure Connection" && t[0].title == "ATS Default Connection")
        #expect(t[0].dictionary == .emptyDict)
        #expect(t[1].section == "Allowing Arbitrary Loads" && t[1].title == "Allow All Loads")
        #expect(t[1].dictionary == .dict(["NSAllowsArbitraryLoads": .bool(true)]))
        #expect(t[2...5].map(\.title) == ["TLSv1.3", "TLSv1.2", "TLSv1.1", "TLSv1.0"])
        #expect(t[2].section == "Configuring TLS exceptions for api.example.com")
        #expect(
            t[6].section == "Configuring PFS exceptions for api.example.com"
                && t[6].title == "Disabling Perfect Forward Secrecy")
        #expect(t[7].title == "Disabling Perfect Forward Secrecy and Allowing Insecure HTTP")
        #expect(t[7].section == "Configuring PFS exceptions and allowing insecure HTTP for api.example.com")
        #expect(
            t[8].title == "TLSv1.3 with PFS disabled"
                && t[8].section == "Configuring TLS exceptions with PFS disabled for api.example.com")
        #expect(t[15].title == "TLSv1.0 with PFS disabled and insecure HTTP allowed")
        #expect(
            t[15].section
                == "Configuring TLS exceptions with PFS disabled and insecure HTTP allowed for api.example.com")
        #expect(
            t[15].dictionary
                == .dict([
                    "NSExceptionDomains": .dict([
                        "api.example.com": .dict([
                            "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                            "NSExceptionMinimumTLSVersion": .string("TLSv1.0"),
                            "NSExceptionRequiresForwardSecrecy": .bool(false),
                        ])
                    ])
                ]))
    }

    @Test("FAIL reasons use the NSURLError codes of §5.4")
    func reasons() throws {
        let tls = Self.run(Self.rows[2])
        #expect(
            tls.tests[0].reason
                == "-1200 TLS handshake would fail: TLSv1.2 accepts only TLS_RSA_WITH_AES_128_CBC_SHA: no forward secrecy; ATS requires ECDHE"
        )
        let trust = Self.run(Self.rows[6])
        #expect(
            trust.tests[0].reason?.hasPrefix(
                "-1202 certificate not trusted: the chain does not verify to a trusted root (self-signed certificate)")
                == true)
        #expect(trust.minimalException.reason.contains("no NSExceptionDomains entry can make this pass"))
        let http = ATSDiagnostics.run(
            profile: Fixture.profile(Fixture.modern), target: Target(scheme: "http", host: Self.h, port: 80))
        #expect(http.tests[0].reason?.hasPrefix("-1022") == true)
        #expect(
            http.tests.map { $0.result == .pass } == [
                false, true, false, false, false, false, false, true, false, false, false, false, true, true, true,
                true,
            ])
        #expect(http.minimalException.dictionary == .dict(["NSExceptionAllowsInsecureHTTPLoads": .bool(true)]))
        let cbc = Self.run(Self.rows[4])
        #expect(cbc.tests[0].reason?.contains("doc-suite-list: PASS") == true)
        #expect(cbc.minimalException.reason.contains("disables ATS for api.example.com"))
    }

    @Test("the plist fragment is ready to paste, and the JSON keeps plist types")
    func plistAndJSON() throws {
        let report = Self.run(Self.rows[1])
        #expect(
            report.minimalException.plist == """
                <key>api.example.com</key>
                <dict>
                \t<key>NSExceptionMinimumTLSVersion</key>
                \t<string>TLSv1.0</string>
                </dict>
                """)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let json = String(decoding: try encoder.encode(Self.run(Self.rows[2]).minimalException), as: UTF8.self)
        #expect(json.contains(#""dictionary":{"NSExceptionRequiresForwardSecrecy":false}"#))
        #expect(json.contains(#""status":"exception""#))
        let decoded = try JSONDecoder().decode(DiagnosticsReport.self, from: try encoder.encode(report))
        #expect(decoded == report)
    }

    @Test("§2.1 CONFLICT at exactly 398 days (added 2026-11-23): every test AMBIGUOUS, no exception proposed")
    func ambiguousTrust() {
        var leaf = Fixture.cert(notBefore: AppleDates.utc(2025, 1, 1))
        leaf.notAfter = leaf.notBefore.addingTimeInterval(398 * Fixture.day)
        let report = ATSDiagnostics.run(
            profile: Fixture.profile(Fixture.modern, leaf: leaf), target: Target(host: Self.h))
        #expect(report.tests.allSatisfy { $0.result == .ambiguous })
        let reason = report.tests[0].reason ?? ""
        #expect(
            reason.hasPrefix(
                "Apple's sources disagree: source-lifetime-trustd: PASS; doc-lifetime-inclusive: FAIL (-1202 certificate not trusted"
            ))
        // No entry changes a trust rule: no UNCERTAIN entry that merely repeats the default's readings.
        #expect(report.minimalException.status == .impossible)
        #expect(report.minimalException.dictionary == nil)
        #expect(
            report.minimalException.reason.hasPrefix(
                "Apple's sources disagree whether the default configuration passes (source-lifetime-trustd: PASS; doc-lifetime-inclusive: FAIL)"
            ))
        // With a server that also needs RFS = NO, that entry passes under the trustd reading only: UNCERTAIN.
        let both = ATSDiagnostics.run(
            profile: Fixture.profile(Fixture.rsaKxOnly, leaf: leaf), target: Target(host: Self.h))
        #expect(both.tests[0].result == .fail)
        #expect(both.tests[6].result == .ambiguous)
        #expect(both.minimalException.status == .exception)
        #expect(both.minimalException.dictionary == .dict(["NSExceptionRequiresForwardSecrecy": .bool(false)]))
        #expect(
            both.minimalException.reason.hasPrefix(
                "UNCERTAIN: this entry passes under the reading(s) source-lifetime-trustd but not under doc-lifetime-inclusive"
            ))
    }

    @Test("an incomplete scan predicts nothing")
    func incomplete() {
        let report = ATSDiagnostics.run(
            profile: Fixture.profile(Fixture.modern, status: .timeout), target: Target(host: Self.h))
        #expect(report.tests.allSatisfy { $0.result == .unknown && $0.reason?.contains("timeout") == true })
        #expect(report.minimalException.status == .unknown)
    }
}
