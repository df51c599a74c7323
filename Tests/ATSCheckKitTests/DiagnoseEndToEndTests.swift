import ATSPolicy
import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// `atscheck diagnose` end to end (issue 3): a real OpenSSL server on 127.0.0.1, one real scan, then the
/// nscurl matrix (docs/apple-rules.md §5.2, §5.3) and the minimal exception for one or more OS releases.
///
/// The expected cells were derived from `docs/apple-rules.md` by hand, not copied from the engine. Test order:
/// 1 default · 2 AAL · 3–6 min TLSv1.3…1.0 · 7 PFS off · 8 PFS off + HTTP · 9–12 min 1.3…1.0 + PFS off ·
/// 13–16 min 1.3…1.0 + PFS off + HTTP (13 tests before iOS 13: no TLSv1.3 rows).
///
/// The host is `diag.atscheck.test`, a public-looking name: `localhost` is exempt from ATS on iOS 10+ (§4.5).
/// Trust comes from a `--ca-file` root, which Apple counts as user- or MDM-installed: the 825-day cap
/// applies, the 398-day cap and Certificate Transparency do not (§2.1, §2.2).
@Suite("diagnose end to end against in-process servers", .serialized)
struct DiagnoseEndToEndTests {
    static let host = "diag.atscheck.test"

    /// What one OS release should predict for the server.
    struct Expectation: Sendable {
        var os: String
        /// One letter per test: P(ASS), F(AIL), A(MBIGUOUS).
        var cells: String
        var status: MinimalException.Status
        /// The minimal exception's entry (nil unless `status` is `.exception`).
        var exception: [String: PlistValue]? = nil
        /// Text every FAIL reason of test 1 (or AMBIGUOUS reason) must contain, e.g. `-1200`.
        var firstReason: String? = nil
    }

    struct Case: Sendable, CustomStringConvertible {
        var description: String
        var server: @Sendable () throws -> TLSServerConfiguration
        var expectations: [Expectation]
    }

    static func leaf(_ spec: CertificateSpec) throws -> [TestCertificate] {
        let pki = TestPKI.shared
        return pki.chain(for: try pki.leaf(spec))
    }

    static let modernTLS = "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305"
    static let pfsOff: [String: PlistValue] = ["NSExceptionRequiresForwardSecrecy": .bool(false)]

    static let cases: [Case] = [
        // Everything ATS wants: TLS 1.2 + 1.3, ECDHE-AEAD, RSA-2048 SHA-256 90-day leaf naming the host.
        Case(
            description: "modern server",
            server: { .modern(chain: try leaf(.leaf(host))) },
            expectations: [
                Expectation(os: "26.4", cells: "PPPPPPPPPPPPPPPP", status: .noneNeeded),
                // iOS 12 has no TLSv1.3 tests and negotiates TLS 1.2 (§1.4): still nothing to relax.
                Expectation(os: "12", cells: "PPPPPPPPPPPPP", status: .noneNeeded),
            ]),
        // §5.3 tests 3–6: only a minimum of TLSv1.0 reaches the server's only version; TLS 1.0 with
        // ECDHE-RSA-AES128-SHA (0xC013, in every ATS list) then passes. Test 8 keeps the 1.2 minimum.
        Case(
            description: "TLS 1.0 only",
            server: { .only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA:AES128-SHA", chain: try leaf(.leaf(host))) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FPFFFPFFFFFPFFFP", status: .exception,
                    exception: ["NSExceptionMinimumTLSVersion": .string("TLSv1.0")], firstReason: "-1200")
            ]),
        // §6: RSA key exchange only needs NSExceptionRequiresForwardSecrecy = NO (test 7); both suites are in
        // the §1.3 compatibility group of every era. No TLS 1.3, so every min-TLSv1.3 test fails.
        Case(
            description: "RSA key exchange only",
            server: { .only(.tls1_2, cipherList: "AES128-GCM-SHA256:AES256-SHA", chain: try leaf(.leaf(host))) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FPFFFFPPFPPPFPPP", status: .exception, exception: pfsOff,
                    firstReason: "no forward secrecy")
            ]),
        // §6: a TLS 1.3-only server passes default ATS on iOS 13+; a TLSv1.3 minimum only raises the bar.
        Case(
            description: "TLS 1.3 only",
            server: { .only(.tls1_3, chain: try leaf(.leaf(host))) },
            expectations: [
                Expectation(os: "26.4", cells: "PPPPPPPPPPPPPPPP", status: .noneNeeded),
                Expectation(os: "13", cells: "PPPPPPPPPPPPPPPP", status: .noneNeeded),
            ]),
        // §1.2/§6 CONFLICT: 0xC027 is in the documented list and the Security source up to iOS 15.3, but not in
        // the source's group from 15.4. Where ATS narrows the suites (tests 1, 4–7, 10–12) 15.4+ must be
        // AMBIGUOUS; where ATS leaves them to the system (2, 8, 14–16) it passes; min TLSv1.3 fails (no 1.3).
        // On 13 both readings contain 0xC027: PASS. The minimal exception must pass under every reading, so
        // it is the entry that stops ATS narrowing the suites (§1.3: insecure HTTP + PFS off).
        Case(
            description: "ECDHE-CBC-SHA256 only",
            server: { .only(.tls1_2, cipherList: "ECDHE-RSA-AES128-SHA256", chain: try leaf(.leaf(host))) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "APFAAAAPFAAAFPPP", status: .exception,
                    exception: [
                        "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                        "NSExceptionRequiresForwardSecrecy": .bool(false),
                    ],
                    firstReason: "source-suite-list: FAIL"),
                Expectation(
                    os: "15.4", cells: "APFAAAAPFAAAFPPP", status: .exception,
                    exception: [
                        "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                        "NSExceptionRequiresForwardSecrecy": .bool(false),
                    ]),
                Expectation(os: "15.3", cells: "PPFPPPPPFPPPFPPP", status: .noneNeeded),
                Expectation(os: "13", cells: "PPFPPPPPFPPPFPPP", status: .noneNeeded),
            ]),
        // §6: DHE is in no ATS list, so no exception that keeps ATS on helps (tests 1, 3–7, 9–12 FAIL). With
        // ATS off for the host (2, 8, 14–16) the suites are the system's undocumented default list, which §1.3
        // says to mark uncertain: AMBIGUOUS. (§6 itself says turning ATS off helps; see the known issue below.)
        Case(
            description: "DHE only",
            server: {
                .only(.tls1_2, cipherList: "DHE-RSA-AES128-GCM-SHA256:DHE-RSA-AES256-SHA", chain: try leaf(.leaf(host)))
            },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FAFFFFFAFFFFFAAA", status: .exception,
                    exception: [
                        "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                        "NSExceptionRequiresForwardSecrecy": .bool(false),
                    ],
                    firstReason: "DHE")
            ]),
        // §6: a self-signed certificate fails with ATS on, and no Info.plist key makes URLSession trust it.
        Case(
            description: "self-signed",
            server: { .modern(chain: [try TestCertificate.selfSigned(.leaf(host))]) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FFFFFFFFFFFFFFFF", status: .impossible,
                    firstReason:
                        "-1202 certificate not trusted: the chain does not verify to a trusted root (self-signed")
            ]),
        // §2.1: SHA-1-signed leaves are refused by system trust from iOS 11, so even test 2 (AAL) fails.
        Case(
            description: "SHA-1 signed leaf",
            server: { .modern(chain: try leaf(.leaf(host, digest: .sha1))) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FFFFFFFFFFFFFFFF", status: .impossible, firstReason: "sha1WithRSAEncryption")
            ]),
        // §2.1: RSA < 2048 is refused for the whole chain by system trust from iOS 13 (from 11 for RSA). On
        // iOS 10 only ATS's own leaf key check applies, which PFS off drops (§1.3): tests 2 and 6–13 pass.
        Case(
            description: "RSA-1024 leaf",
            server: { .modern(chain: try leaf(.leaf(host, key: .rsa(bits: 1024)))) },
            expectations: [
                Expectation(os: "26.4", cells: "FFFFFFFFFFFFFFFF", status: .impossible, firstReason: "1024"),
                Expectation(
                    os: "10", cells: "FPFFFPPPPPPPP", status: .exception, exception: pfsOff, firstReason: "1024"),
            ]),
        // §2.4: the host is not in the SAN; no key relaxes hostname matching.
        Case(
            description: "wrong host",
            server: { .modern(chain: try leaf(.leaf("other.atscheck.test"))) },
            expectations: [
                Expectation(os: "26.4", cells: "FFFFFFFFFFFFFFFF", status: .impossible, firstReason: host)
            ]),
        // §2.1: 900 days > 825 days + 1 hour, and the 825-day cap applies to user/MDM roots too.
        Case(
            description: "over-long validity (900 days, user-installed root)",
            server: { .modern(chain: try leaf(.leaf(host, validityDays: 900))) },
            expectations: [
                Expectation(
                    os: "26.4", cells: "FFFFFFFFFFFFFFFF", status: .impossible,
                    firstReason: "user- or MDM-installed root; Apple allows at most 825 days"),
                // Before iOS 13 no lifetime cap is enforced.
                Expectation(os: "12", cells: "PPPPPPPPPPPPP", status: .noneNeeded),
            ]),
        // §2.1: the 398-day cap is for preinstalled roots only; a --ca-file root is user-installed.
        Case(
            description: "500-day leaf under a user-installed root",
            server: { .modern(chain: try leaf(.leaf(host, validityDays: 500))) },
            expectations: [Expectation(os: "26.4", cells: "PPPPPPPPPPPPPPPP", status: .noneNeeded)]),
    ]

    /// Starts the server, scans it once with the real prober, and returns the profile; stops the server.
    static func scanOnce(_ configuration: TLSServerConfiguration) async throws -> (ServerProfile, accepted: Int) {
        let server = try TestTLSServer(configuration)
        defer { server.stop() }
        let caFile = TestScratch.file("atscheck-diag-ca", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let request = ProbeRequest(
            target: try Target(parsing: "\(host):\(server.port)"), connectAddress: server.host, timeout: 3,
            caFiles: [caFile])
        let profile = await TLSProber().scan(request)
        return (profile, server.acceptedConnections)
    }

    static func letters(_ report: DiagnosticsReport) -> String {
        String(report.tests.map { $0.result.rawValue.first! })
    }

    @Test("every PASS/FAIL cell and the minimal exception", arguments: cases)
    func matrix(_ c: Case) async throws {
        let (profile, _) = try await Self.scanOnce(try c.server())
        try #require(profile.status == .completed, "scan: \(profile.error ?? "?")")
        let target = try Target(parsing: "https://\(Self.host)/")
        for e in c.expectations {
            let os = try #require(AppleOSVersion(string: e.os))
            let report = ATSDiagnostics.run(profile: profile, target: target, for: ATSClient(os: os))
            #expect(Self.letters(report) == e.cells, "iOS \(e.os)")
            #expect(report.osVersion == os.description)
            #expect(report.tests.map(\.number) == Array(1...e.cells.count))
            #expect(report.tests.allSatisfy { ($0.result == .pass) == ($0.reason == nil) }, "iOS \(e.os)")
            if let text = e.firstReason {
                #expect(
                    report.tests[0].reason?.contains(text) == true, "iOS \(e.os): \(report.tests[0].reason ?? "nil")")
            }
            let m = report.minimalException
            #expect(m.status == e.status, "iOS \(e.os): \(m.reason)")
            #expect(m.domain == Self.host)
            #expect(m.dictionary == e.exception.map(PlistValue.dict), "iOS \(e.os)")
            if let entry = e.exception {
                let plist = try #require(m.plist)
                #expect(plist.hasPrefix("<key>\(Self.host)</key>\n<dict>"))
                for (key, value) in entry {
                    let xml: String
                    switch value {
                    case .bool(let b): xml = "\t<key>\(key)</key>\n\t<\(b)/>"
                    case .string(let s): xml = "\t<key>\(key)</key>\n\t<string>\(s)</string>"
                    default: xml = "?"
                    }
                    #expect(plist.contains(xml), "\(plist)")
                }
                #expect(!plist.contains("NSIncludesSubdomains"))
            } else {
                #expect(m.plist == nil)
            }
        }
    }

    /// §6 says a DHE-only server can only be helped by turning ATS off for the host
    /// (`NSExceptionAllowsInsecureHTTPLoads` + RFS NO). Whether the system's default suite list then
    /// offers DHE is not public (§1.3), so the engine recommends that entry and says it is uncertain.
    @Test("DHE only: the minimal exception turns ATS off for the host (§6) and says it is uncertain")
    func dheMinimalException() async throws {
        let config = TLSServerConfiguration.only(
            .tls1_2, cipherList: "DHE-RSA-AES128-GCM-SHA256", chain: try Self.leaf(.leaf(Self.host)))
        let (profile, _) = try await Self.scanOnce(config)
        try #require(profile.status == .completed)
        let report = ATSDiagnostics.run(profile: profile, target: try Target(parsing: "https://\(Self.host)/"))
        #expect(report.minimalException.status == .exception)
        #expect(
            report.minimalException.dictionary
                == .dict([
                    "NSExceptionAllowsInsecureHTTPLoads": .bool(true),
                    "NSExceptionRequiresForwardSecrecy": .bool(false),
                ]))
        #expect(report.minimalException.reason.hasPrefix("UNCERTAIN"))
        #expect(report.minimalException.reason.contains("disables ATS"))
    }

    @Test("the diagnose matrix costs no connection beyond the scan's handshakes")
    func noExtraConnections() async throws {
        let server = try TestTLSServer(
            .only(
                .tls1_2, cipherList: "ECDHE-RSA-AES128-SHA256:AES128-GCM-SHA256", chain: try Self.leaf(.leaf(Self.host))
            ))
        defer { server.stop() }
        let caFile = TestScratch.file("atscheck-diag-ca", suffix: ".pem")
        try TestPKI.shared.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: caFile) }
        let target = try Target(parsing: "\(Self.host):\(server.port)")
        let profile = await TLSProber().scan(
            ProbeRequest(target: target, connectAddress: server.host, timeout: 3, caFiles: [caFile]))
        try #require(profile.status == .completed)
        #expect(profile.handshakes > 0)
        var reports: [DiagnosticsReport] = []
        for os in ["9", "10", "13", "15.4", "17", "26.4"] {
            reports.append(
                ATSDiagnostics.run(profile: profile, target: target, for: ATSClient(os: AppleOSVersion(string: os)!)))
        }
        #expect(reports.allSatisfy { $0.tests.count >= 13 })
        #expect(server.acceptedConnections == profile.connections)
    }
}
