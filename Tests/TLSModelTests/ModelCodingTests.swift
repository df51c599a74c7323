import Foundation
import TLSModel
import Testing

@Suite("Model values and their JSON")
struct ModelCodingTests {
    @Test("cipher suites parse by code, IANA name and OpenSSL name")
    func cipherSuiteParsing() throws {
        #expect(CipherSuite(text: "0xC02F") == .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
        #expect(CipherSuite(text: "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256") == .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
        #expect(CipherSuite(text: "ECDHE-RSA-AES128-GCM-SHA256") == .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256)
        #expect(CipherSuite(text: "0xFAFA")?.info == nil)  // unknown codes stay representable
        #expect(CipherSuite(text: "0xFAFA")?.ianaName == "0xFAFA")
        #expect(CipherSuite(text: "nonsense") == nil)
    }

    @Test("registry facts: forward secrecy, key exchange, CBC")
    func registryFacts() throws {
        let rsa = try #require(CipherSuite.TLS_RSA_WITH_AES_128_CBC_SHA.info)
        #expect(rsa.keyExchange == .rsa && !rsa.forwardSecrecy && rsa.isCBC)
        let ecdhe = try #require(CipherSuite.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256.info)
        #expect(ecdhe.keyExchange == .ecdhe && ecdhe.authentication == .ecdsa && !ecdhe.isCBC)
        let tls13 = try #require(CipherSuite.TLS_AES_128_GCM_SHA256.info)
        #expect(tls13.isTLS13 && tls13.forwardSecrecy)
        let dhe = try #require(CipherSuite.TLS_DHE_RSA_WITH_AES_128_GCM_SHA256.info)
        #expect(dhe.keyExchange == .dhe && dhe.forwardSecrecy)
        #expect(CipherSuite.registry.count > 150)
    }

    @Test("TLS versions encode as TLSv1.x and order by wire value")
    func versions() throws {
        let data = try JSONEncoder().encode([TLSVersion.tls1_0, .tls1_3])
        #expect(String(decoding: data, as: UTF8.self) == #"["TLSv1.0","TLSv1.3"]"#)
        #expect(TLSVersion.tls1_1 < .tls1_2)
        #expect(TLSVersion(name: "TLSV1.2") == nil)  // Apple's values are case-sensitive
    }

    @Test("Apple lifetime counting is inclusive and rounds up (support 102028)")
    func lifetime() {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        func facts(seconds: Double) -> CertificateFacts {
            CertificateFacts(
                subject: "", issuer: "", serialNumber: "1", notBefore: start,
                notAfter: start.addingTimeInterval(seconds), keyType: "RSA", keyBits: 2048,
                signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: "SHA256", sha256: "", spkiSHA256: "")
        }
        #expect(facts(seconds: 398 * 86_400 - 1).lifetimeDays == 398)
        #expect(facts(seconds: 398 * 86_400).lifetimeDays == 399)
    }

    @Test("an endpoint encodes flat: profile fields and ats side by side, and decodes back")
    func endpointFlat() throws {
        let profile = ServerProfile(
            target: "a.example:443", host: "a.example", port: 443, status: .completed,
            scannedAt: Date(timeIntervalSince1970: 0))
        let endpoint = EndpointResult(profile: profile, ats: ATSEvaluation(verdict: .pass))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let data = try encoder.encode(endpoint)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["target"] as? String == "a.example:443")
        #expect((object["ats"] as? [String: Any])?["verdict"] as? String == "pass")
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        #expect(try decoder.decode(EndpointResult.self, from: data) == endpoint)
    }

    @Test("contract fields that could not be told are explicit nulls, not missing keys")
    func explicitNulls() throws {
        func object<T: Encodable>(_ value: T) throws -> [String: Any] {
            try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        }
        let violation = try object(ATSViolation(rule: "trust.untrusted", message: "m"))
        #expect(violation["keyPath"] is NSNull)
        let finding = try object(Finding(rule: "r", severity: .note, message: "m"))
        #expect(finding["file"] is NSNull && finding["line"] is NSNull && finding["keyPath"] is NSNull)
        let unknownVersion = try object(ProtocolResult(version: .tls1_1, supported: nil))
        #expect(unknownVersion["supported"] is NSNull && unknownVersion["serverPreference"] is NSNull)
        let exception = try object(MinimalException(status: .noneNeeded, domain: "a.example", reason: "r"))
        #expect(exception["dictionary"] is NSNull && exception["plist"] is NSNull)
    }

    @Test("summary counts pass, fail, ambiguous, not scanned and unknown")
    func summary() {
        func endpoint(_ status: ScanStatus, _ verdict: ATSEvaluation.Verdict) -> EndpointResult {
            EndpointResult(
                profile: ServerProfile(target: "x:1", host: "x", port: 1, status: status, handshakes: 3),
                ats: ATSEvaluation(verdict: verdict))
        }
        let s = ReportSummary(endpoints: [
            endpoint(.completed, .pass), endpoint(.completed, .fail),
            endpoint(.completed, .ambiguous), endpoint(.timeout, .unknown),
            endpoint(.completed, .unknown),
        ])
        #expect(s == ReportSummary(passed: 1, failed: 1, ambiguous: 1, unreachable: 1, unknown: 1, handshakes: 15))
    }
}
