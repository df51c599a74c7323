import TLSModel
import Testing

@testable import ATSPolicy

@Suite("TLS requirements and the negotiation model (§0, §1.2–§1.4, §6)")
struct NegotiationRuleTests {
    typealias S = CipherSuite

    @Test(
        "single-suite TLS 1.2 servers by OS era",
        arguments: [
            // suite, os, verdict
            (S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "9", ATSEvaluation.Verdict.pass),
            (S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, "26.4", .pass),
            (S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA, "26.4", .pass),  // CBC-SHA1 ECDHE accepted
            (S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, "13", .ambiguous),  // 0xC014: source lists it, the doc list does not
            (S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, "15.3", .pass),
            (S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, "9", .pass),
            (S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256, "15.4", .ambiguous),  // CONFLICT: doc lists, source dropped
            (S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, "26.4", .ambiguous),
            (S.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256, "17", .ambiguous),  // CONFLICT: docs say AES only
            (S.TLS_RSA_WITH_AES_128_GCM_SHA256, "26.4", .fail),
            (S.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256, "26.4", .fail),
            (S.TLS_RSA_WITH_3DES_EDE_CBC_SHA, "26.4", .fail),
        ])
    func singleSuite(suite: CipherSuite, os: String, verdict: ATSEvaluation.Verdict) {
        let e = Fixture.evaluate(Fixture.profile([.tls1_2: [suite]]), os: os)
        #expect(e.verdict == verdict)
    }

    @Test("RSA key exchange only: forward-secrecy violation with the message and keyPath of the contract")
    func rsaOnly() throws {
        let e = Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly))
        let v = try #require(e.violations.first)
        #expect(e.verdict == .fail && e.violations.count == 1)
        #expect(v.rule == "ats.tls.forward-secrecy")
        #expect(
            v.message == "TLSv1.2 accepts only TLS_RSA_WITH_AES_128_CBC_SHA: no forward secrecy; ATS requires ECDHE")
        #expect(
            v.keyPath == "NSAppTransportSecurity.NSExceptionDomains.api.example.com.NSExceptionRequiresForwardSecrecy")
        let relaxed = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionRequiresForwardSecrecy": false]]
        ])
        #expect(Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly), relaxed).verdict == .pass)
        // RSA CBC-SHA256 was dropped from the compatibility group in 15.4: RFS=NO no longer helps there.
        let sha256 = Fixture.profile([.tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA256]])
        #expect(Fixture.evaluate(sha256, relaxed, os: "15.3").verdict == .pass)
        #expect(Fixture.evaluate(sha256, relaxed, os: "15.4").verdict == .ambiguous)
    }

    @Test("DHE only: no ATS key can help")
    func dheOnly() throws {
        let e = Fixture.evaluate(Fixture.profile(Fixture.dheOnly))
        let v = try #require(e.violations.first)
        #expect(v.rule == "ats.tls.no-ats-suite" && v.keyPath == nil && v.message.contains("DHE"))
        let rfsOff = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionRequiresForwardSecrecy": false]]
        ])
        #expect(Fixture.evaluate(Fixture.profile(Fixture.dheOnly), rfsOff).verdict == .fail)
    }

    @Test("a TLS 1.3-only server for iOS 12 names the client's limit, with no Info.plist key to relax (issue 24)")
    func clientLimitNamed() throws {
        let evaluation = Fixture.evaluate(Fixture.profile(Fixture.tls13Only), os: "12")
        let violation = try #require(evaluation.violations.first { $0.rule.rawValue == "ats.tls.minimum-version" })
        #expect(violation.message.contains("the server accepts only TLSv1.3, above"), "\(violation.message)")
        #expect(violation.message.contains("this iOS release offers (TLSv1.2)"))
        // The same words for every release it holds for, so an app report groups them into one finding.
        #expect(
            Fixture.evaluate(Fixture.profile(Fixture.tls13Only), os: "12.1").violations.first?.message
                == violation.message)
        #expect(violation.keyPath == nil)
        // A server below the floor still gets the floor's message and its key.
        let old = try #require(Fixture.evaluate(Fixture.profile(Fixture.tls10Only)).violations.first)
        #expect(old.message.contains("ATS requires TLSv1.2 or later") && old.keyPath != nil)
    }

    @Test(
        "version floor and negotiation",
        arguments: [
            // suites per version, minimum TLS in an exception (nil = default), os, verdict, first rule
            (
                Fixture.tls10Only, nil as String?, "26.4", ATSEvaluation.Verdict.fail,
                "ats.tls.minimum-version" as String?
            ),
            (Fixture.tls10Only, "TLSv1.0", "26.4", .pass, nil),
            (Fixture.tls10Only, "TLSv1.1", "26.4", .fail, "ats.tls.minimum-version"),
            ([.tls1_1: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]], "TLSv1.1", "26.4", .pass, nil),
            (Fixture.tls13Only, nil, "13", .pass, nil),
            (Fixture.tls13Only, nil, "12", .fail, "ats.tls.minimum-version"),
            // CONFLICT: TLS 1.3 default from 12.2 or 13
            (Fixture.tls13Only, nil, "12.2", .ambiguous, "ats.tls.minimum-version"),
            (Fixture.tls13Only, "TLSv1.3", "26.4", .pass, nil),
            (Fixture.tls12Good, "TLSv1.3", "26.4", .fail, "ats.tls.minimum-version"),
            (Fixture.tls12Good, "TLSv1.3", "12", .fail, "ats.tls.minimum-version"),
            // Highest common version decides: TLS 1.2 RSA-only fails although TLS 1.1 has an ECDHE suite.
            (
                [.tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA], .tls1_1: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]], "TLSv1.1",
                "26.4", .fail, "ats.tls.forward-secrecy"
            ),
            // TLS 1.3 wins over a bad TLS 1.2 list.
            (
                [.tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA], .tls1_3: [S.TLS_AES_256_GCM_SHA384]], nil, "26.4", .pass,
                nil
            ),
            (
                [.tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA], .tls1_3: [S.TLS_AES_256_GCM_SHA384]], nil, "12", .fail,
                "ats.tls.forward-secrecy"
            ),
            ([.tls1_3: [S.TLS_CHACHA20_POLY1305_SHA256]], nil, "26.4", .ambiguous, "ats.tls.no-ats-suite"),
        ] as [([TLSVersion: [CipherSuite]], String?, String, ATSEvaluation.Verdict, String?)])
    func negotiation(
        suites: [TLSVersion: [CipherSuite]], minimum: String?, os: String, verdict: ATSEvaluation.Verdict, rule: String?
    ) {
        let config =
            minimum.map {
                Fixture.config(["NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": $0]]])
            } ?? .default
        let e = Fixture.evaluate(Fixture.profile(suites), config, os: os)
        #expect(e.verdict == verdict)
        #expect(e.violations.first?.rule.rawValue == rule)
    }

    @Test("the fallback message names the lower version that would have passed")
    func fallbackMessage() throws {
        let p = Fixture.profile([
            .tls1_2: [S.TLS_RSA_WITH_AES_128_CBC_SHA], .tls1_1: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA],
        ])
        let config = Fixture.config([
            "NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.1"]]
        ])
        let v = try #require(Fixture.evaluate(p, config).violations.first)
        #expect(v.message.contains("TLSv1.1 would pass, but clients do not fall back"))
    }

    @Test("unknown support: unknown unless every branch agrees")
    func unknownSupport() {
        // TLS 1.3 unknown, TLS 1.2 good: passes either way.
        #expect(Fixture.evaluate(Fixture.profile(Fixture.tls12Good, unknown: [.tls1_3])).verdict == .pass)
        // TLS 1.3 unknown, TLS 1.2 RSA-only: depends on the unknown probe.
        #expect(Fixture.evaluate(Fixture.profile(Fixture.rsaKxOnly, unknown: [.tls1_3])).verdict == .unknown)
        // TLS 1.2 unknown and nothing else: unknown.
        #expect(Fixture.evaluate(Fixture.profile([:], unknown: [.tls1_2])).verdict == .unknown)
        // Not completed.
        #expect(Fixture.evaluate(Fixture.profile(Fixture.modern, status: .unreachable)).verdict == .unknown)
        // Nothing supported at all.
        #expect(Fixture.evaluate(Fixture.profile([:])).violations.first?.rule == "ats.tls.handshake")
    }

    @Test("ECDSA suites need an EC certificate, RSA suites an RSA one")
    func certificateType() {
        let ecOnlySuites: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256]]
        let ecLeaf = Fixture.cert(keyType: "EC", bits: 256)
        #expect(Fixture.evaluate(Fixture.profile(ecOnlySuites, leaf: ecLeaf)).verdict == .pass)
        let mismatch = Fixture.evaluate(Fixture.profile(ecOnlySuites))
        #expect(mismatch.violations.map(\.rule) == ["ats.tls.certificate-type"])
        // An EC-only server passes on TLS 1.3 whatever its TLS 1.2 suites.
        #expect(Fixture.evaluate(Fixture.profile(Fixture.tls13Only, leaf: ecLeaf)).verdict == .pass)
    }

    @Test("NIAP FCP_v2.1 (26.4+): TLS 1.2 restricted to ECDHE AES-GCM; per-domain none overrides")
    func niap() {
        let cbc = Fixture.profile([.tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]])
        let strict = Fixture.config(["NSRequiresNIAPTLSPackageVersion": "FCP_v2.1"])
        let e = Fixture.evaluate(cbc, strict)
        #expect(e.verdict == .fail && e.violations.first?.rule == "ats.tls.niap")
        #expect(e.violations.first?.keyPath?.hasSuffix("NSExceptionRequiresNIAPTLSPackageVersion") == true)
        #expect(Fixture.evaluate(cbc, strict, os: "26").verdict == .pass)  // key unknown before 26.4
        #expect(
            Fixture.evaluate(
                Fixture.profile(Fixture.tls12Good), Fixture.config(["NSRequiresNIAPTLSPackageVersion": "recommended"])
            ).verdict == .pass)
        let override = Fixture.config([
            "NSRequiresNIAPTLSPackageVersion": "FCP_v2.1",
            "NSExceptionDomains": ["api.example.com": ["NSExceptionRequiresNIAPTLSPackageVersion": "none"]],
        ])
        #expect(Fixture.evaluate(cbc, override).verdict == .pass)
    }

    @Test("ATS off for the host: the system default list and TLS 1.0 floor apply")
    func atsOff() {
        let aal = Fixture.config(["NSAllowsArbitraryLoads": true])
        #expect(Fixture.evaluate(Fixture.profile(Fixture.tls10Only), aal).verdict == .pass)
        #expect(Fixture.evaluate(Fixture.profile([.tls1_2: [S.TLS_RSA_WITH_3DES_EDE_CBC_SHA]]), aal).verdict == .pass)
        // DHE-only with ATS off depends on the undocumented system list: ambiguous.
        let dhe = Fixture.evaluate(Fixture.profile(Fixture.dheOnly), aal)
        #expect(dhe.verdict == .ambiguous)
        #expect(dhe.readings.map(\.name) == ["system-suites-without-dhe", "system-suites-with-dhe"])
    }
}
