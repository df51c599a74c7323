import Foundation
import TLSModel
import Testing

/// Every public Codable of TLSModel round-trips, and its encoded keys are exactly its stored properties:
/// a new stored property that does not reach the JSON (and saved profiles) fails here.
@Suite("Contract keys match stored properties")
struct ContractKeysTests {
    /// One value of a contract type, and the properties its JSON may omit when they are nil.
    struct Case: CustomTestStringConvertible, Sendable {
        let name: String
        /// Every optional set: every stored property must be encoded.
        let full: @Sendable () throws -> (keys: Set<String>, properties: Set<String>, roundTrips: Bool)
        /// Every optional nil: only `omittable` may be missing.
        let minimal: @Sendable () throws -> (keys: Set<String>, properties: Set<String>, roundTrips: Bool)
        let omittable: Set<String>
        var testDescription: String { name }

        init<T: Codable & Equatable & Sendable>(
            _ name: String, full: @autoclosure @escaping @Sendable () -> T,
            minimal: @autoclosure @escaping @Sendable () -> T,
            omittable: Set<String> = [], flattened: Set<String> = [],
            extraKeys: @escaping @Sendable (T) -> Set<String> = { _ in [] }
        ) {
            self.name = name
            self.omittable = omittable
            self.full = { try ContractKeysTests.inspect(full(), flattened: flattened, extraKeys: extraKeys) }
            self.minimal = { try ContractKeysTests.inspect(minimal(), flattened: flattened, extraKeys: extraKeys) }
        }
    }

    static func inspect<T: Codable & Equatable>(
        _ value: T, flattened: Set<String>, extraKeys: (T) -> Set<String>
    ) throws -> (keys: Set<String>, properties: Set<String>, roundTrips: Bool) {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(value)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode(T.self, from: data)
        return (
            Set(object.keys), storedProperties(of: value).subtracting(flattened).union(extraKeys(value)), back == value
        )
    }

    /// Stored property names, with a property wrapper's `_` storage prefix removed.
    static func storedProperties(of value: Any) -> Set<String> {
        Set(
            Mirror(reflecting: value).children.compactMap {
                $0.label.map { $0.hasPrefix("_") ? String($0.dropFirst()) : $0 }
            })
    }

    static let date = Date(timeIntervalSince1970: 1_700_000_000)

    static func facts(full: Bool) -> CertificateFacts {
        CertificateFacts(
            subject: "CN=a", issuer: "CN=b", commonName: full ? "a" : nil, serialNumber: "01", notBefore: date,
            notAfter: date.addingTimeInterval(86_400), keyType: "EC", keyBits: 256, curve: full ? "P-256" : nil,
            signatureAlgorithm: "ecdsa-with-SHA256", signatureHash: full ? "SHA256" : nil, subjectAltNames: ["a"],
            ipAddresses: ["127.0.0.1"], keyUsage: full ? ["digitalSignature"] : nil,
            extendedKeyUsage: full ? ["serverAuth"] : nil, isCA: full ? false : nil, pathLength: full ? 0 : nil,
            embeddedSCTs: 2, selfSigned: false, sha256: "00", spkiSHA256: "AA==", der: Data([1, 2]))
    }

    static func certificate(full: Bool) -> CertificateReport {
        var report = CertificateReport(
            chain: [facts(full: full)], trusted: full ? true : nil, hostnameMatches: full ? true : nil,
            verifyError: full ? "self-signed certificate" : nil, verifyErrorCode: full ? 18 : nil,
            verifiedChain: [facts(full: full)], anchor: .custom, ocspStapled: full ? false : nil, verifiedAt: date,
            trust: full
                ? TrustEvaluation(
                    source: "apple", label: "Apple iOS 26.0",
                    stores: [
                        StoreOutcome(store: "Apple iOS 26.0", iOS: "26.0", trusted: true, anchor: .system, path: ["00"])
                    ])
                : nil,
            transparency: full
                ? CertificateTransparencyReport(logList: "test", scts: [], requestedDelivered: true) : nil,
            revocation: full ? revocation(full: true) : nil)
        report.unparsedCertificates = full ? [unparsed()] : nil
        return report
    }

    static func unparsed() -> UnparsedCertificate {
        UnparsedCertificate(
            origin: .served, position: 2, reason: "parsing a certificate (DER)", sha256: "00", der: Data([0x30]))
    }

    static func transparency(full: Bool) -> CertificateTransparencyReport {
        var report = CertificateTransparencyReport(
            logList: "test", scts: [], requestedDelivered: true, logListDate: full ? date : nil)
        report.unparsedSCTs =
            full ? [UnparsedSCT(source: .tlsExtension, reason: "parsing an SCT (o2i_SCT)", serialized: Data([0]))] : nil
        return report
    }

    static func staple(full: Bool) -> StapledOCSPFacts {
        StapledOCSPFacts(
            response: Data([0x30, 0]), status: full ? .revoked : nil, certificateSHA256: full ? "00" : nil,
            certificate: full ? "CN=a" : nil, revokedAt: full ? date : nil, reason: full ? "keyCompromise" : nil,
            thisUpdate: full ? date : nil, nextUpdate: full ? date : nil, producedAt: full ? date : nil,
            responder: full ? .delegated : nil, responderSubject: full ? "CN=r" : nil, problem: full ? .expired : nil,
            detail: full ? "nextUpdate" : nil, checkedAt: date)
    }

    static func onlineCheck() -> OnlineRevocationCheck {
        OnlineRevocationCheck(
            certificate: "CN=a", certificateSHA256: "00", index: 0, reasons: [.extendedValidation, .validDatabase],
            responders: ["http://ocsp.example"])
    }

    static func revocation(full: Bool) -> RevocationReport {
        RevocationReport(
            stapled: full ? staple(full: true) : nil, leafResponders: ["http://ocsp.example"],
            onlineChecks: [onlineCheck()])
    }

    static func protocolResult(full: Bool) -> ProtocolResult {
        var result = ProtocolResult(
            version: .tls1_2, supported: full ? true : nil, reason: full ? "alert" : nil,
            serverPreference: full ? true : nil, cipherSuites: [suite(full: full)], enumerationComplete: true)
        result.refusedSuites = full ? [.TLS_RSA_WITH_AES_128_CBC_SHA] : nil
        result.serverOrderComplete = full ? false : nil
        result.chachaPrioritized = full ? true : nil
        result.untestedSuites = full ? [.TLS_RSA_WITH_3DES_EDE_CBC_SHA] : nil
        result.groups = full ? [AcceptedGroup(group: .X25519MLKEM768), AcceptedGroup(group: .x25519)] : nil
        result.groupsComplete = full ? false : nil
        return result
    }

    static func provenGroup() -> AcceptedGroup {
        var group = AcceptedGroup(group: .secp384r1)
        group.proven = true
        return group
    }

    static func suite(full: Bool) -> AcceptedCipherSuite {
        AcceptedCipherSuite(
            suite: .TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, group: full ? "X25519" : nil, groupBits: full ? 256 : nil)
    }

    static func profile(full: Bool) -> ServerProfile {
        var profile = ServerProfile(
            target: "a:443", host: "a", port: 443, address: full ? "127.0.0.1" : nil, sni: full ? "a" : nil,
            status: .completed, error: full ? "partial" : nil, handshakes: 3, protocols: [protocolResult(full: full)],
            certificate: full ? certificate(full: true) : nil, scannedAt: date, durationSeconds: 1.5,
            probeLibrary: full ? "OpenSSL 3" : nil, scheme: full ? "https" : nil, retries: full ? 2 : 0,
            drops: full ? 3 : 0)
        profile.scope = full ? "ats-only" : nil
        profile.unusedConnections = full ? 4 : nil
        profile.serverConnections = full ? 1 : nil
        profile.proxy = full ? "http://127.0.0.1:3128" : nil
        profile.simulations = full ? [simulation(full: true)] : nil
        profile.helloSizeTolerance = full ? sizeTolerance(full: true) : nil
        return profile
    }

    static func simulation(full: Bool) -> ClientSimulation {
        ClientSimulation(
            client: "iOS 26 (URLSession)", profile: "ios26-urlsession", osVersion: "26", evidence: "inferred",
            outcome: full ? .negotiated : .dropped, version: full ? .tls1_3 : nil,
            suite: full ? AcceptedCipherSuite(suite: .TLS_AES_256_GCM_SHA384, group: "X25519MLKEM768") : nil,
            group: full ? AcceptedGroup(group: .X25519MLKEM768) : nil,
            signatureScheme: full ? "rsa_pss_rsae_sha256" : nil, quantumSecure: full ? true : nil,
            failure: full ? "n/a" : nil)
    }

    static func sizeTolerance(full: Bool) -> HelloSizeTolerance {
        HelloSizeTolerance(split: .dropped, single: .negotiated, tolerant: false, detail: full ? "reset" : nil)
    }

    static func violation(full: Bool) -> ATSViolation {
        ATSViolation(
            rule: RuleID.ATS.forwardSecrecy, message: "m", keyPath: full ? "NSAppTransportSecurity.x" : nil,
            keyPathComponents: full ? ["NSAppTransportSecurity", "x"] : nil)
    }

    static func evaluation(full: Bool) -> ATSEvaluation {
        ATSEvaluation(
            verdict: .ambiguous, violations: [violation(full: full)], osVersion: full ? "26.4" : nil, notes: ["n"],
            readings: [.init(name: "doc", verdict: .fail, violations: [violation(full: full)])],
            ambiguities: full ? ["the CT log list is older than an SCT"] : [])
    }

    static func finding(full: Bool) -> Finding {
        var finding = Finding(
            rule: "plist.key.unknown", severity: .warning, message: "m", file: full ? "Info.plist" : nil,
            line: full ? 3 : nil, keyPath: full ? "NSAppTransportSecurity.NSFoo" : nil)
        finding.keyPathComponents = full ? ["NSAppTransportSecurity", "NSFoo"] : nil
        finding.configuration = full ? "DEBUG defined" : nil
        return finding
    }

    /// Every count set, the quantum-secure readiness counts included.
    static func summary() -> ReportSummary {
        var summary = ReportSummary(passed: 1, failed: 2, ambiguous: 6, unreachable: 3, unknown: 4, handshakes: 5)
        summary.quantumSecure = 7
        summary.notQuantumSecure = 8
        summary.quantumUnknown = 9
        return summary
    }

    static func endpoint(full: Bool) -> EndpointResult {
        EndpointResult(
            profile: profile(full: full), ats: evaluation(full: full),
            source: full ? SourceLocation(file: "e.txt", line: 2) : nil)
    }

    static func test(full: Bool) -> DiagnosticTest {
        DiagnosticTest(
            number: 1, section: "s", title: "t", dictionary: .emptyDict, result: full ? .fail : .pass,
            reason: full ? "-1200" : nil)
    }

    static func exception(full: Bool) -> MinimalException {
        MinimalException(
            status: full ? .exception : .noneNeeded, domain: "a", dictionary: full ? .dict(["K": .bool(false)]) : nil,
            plist: full ? "<key>a</key>" : nil, reason: "r")
    }

    static func conflict() -> ConflictingReading {
        ConflictingReading(
            conflict: "c", summary: "s", reading: "r", atsApplies: true, httpAllowed: false, minimumTLS: .tls1_2,
            forwardSecrecyRequired: true, reason: "why")
    }

    static func clientPolicy(full: Bool = true) -> ClientPolicy {
        var policy = ClientPolicy(
            client: .urlSession, atsApplies: true, httpAllowed: false, minimumTLS: .tls1_2,
            forwardSecrecyRequired: true,
            niap: false, decidedBy: ["NSAllowsArbitraryLoads"], reason: "r", conflicts: [conflict()])
        policy.decidedByComponents = full ? [["NSAppTransportSecurity", "NSAllowsArbitraryLoads"]] : nil
        return policy
    }

    static func explanation() -> PolicyExplanation {
        var explanation = PolicyExplanation(
            hosts: [
                HostPatternPolicy(
                    pattern: "a", kind: .exceptionDomain, exampleHost: "a",
                    eras: [EraPolicy(era: "17+", osVersion: "17.0", clients: [clientPolicy()])])
            ], notes: ["n"])
        explanation.lowestOS = "15.6"
        explanation.lowestOSSource = "MinimumOSVersion"
        explanation.configuration = "DEBUG defined"
        return explanation
    }

    static let cases: [Case] = [
        Case(
            "ServerProfile", full: profile(full: true), minimal: profile(full: false),
            omittable: [
                "probeLibrary", "scheme", "scope", "unusedConnections", "serverConnections", "proxy", "simulations",
                "helloSizeTolerance",
            ]),
        Case(
            "ClientSimulation", full: simulation(full: true), minimal: simulation(full: false),
            omittable: ["signatureScheme", "failure"]),
        Case(
            "HelloSizeTolerance", full: sizeTolerance(full: true), minimal: sizeTolerance(full: false),
            omittable: ["detail"]),
        Case(
            "ProtocolResult", full: protocolResult(full: true), minimal: protocolResult(full: false),
            omittable: [
                "reason", "refusedSuites", "serverOrderComplete", "chachaPrioritized", "untestedSuites", "groups",
                "groupsComplete",
            ]),
        Case(
            "AcceptedGroup", full: provenGroup(), minimal: AcceptedGroup(group: NamedGroup(0x7A7A)),
            omittable: ["bits", "proven"]),
        Case(
            "AcceptedCipherSuite", full: suite(full: true), minimal: suite(full: false),
            omittable: ["group", "groupBits"]),
        Case(
            "CertificateReport", full: certificate(full: true), minimal: certificate(full: false),
            omittable: ["verifyErrorCode", "trust", "transparency", "revocation", "unparsedCertificates"]),
        Case("UnparsedCertificate", full: unparsed(), minimal: unparsed()),
        Case(
            "CertificateTransparencyReport", full: transparency(full: true), minimal: transparency(full: false),
            omittable: ["logListDate", "unparsedSCTs"]),
        Case(
            "UnparsedSCT", full: UnparsedSCT(source: .ocsp, reason: "r", serialized: Data([1])),
            minimal: UnparsedSCT(source: .ocsp, reason: "r", serialized: Data([1]))),
        Case(
            "RevocationReport", full: revocation(full: true), minimal: revocation(full: false),
            omittable: ["stapled"]),
        Case(
            "StapledOCSPFacts", full: staple(full: true), minimal: staple(full: false),
            omittable: [
                "status", "certificateSHA256", "certificate", "revokedAt", "reason", "thisUpdate", "nextUpdate",
                "producedAt", "responder", "responderSubject", "problem", "detail",
            ]),
        Case("OnlineRevocationCheck", full: onlineCheck(), minimal: onlineCheck()),
        Case(
            "CertificateFacts", full: facts(full: true), minimal: facts(full: false),
            omittable: ["commonName", "curve", "signatureHash", "keyUsage", "extendedKeyUsage", "isCA", "pathLength"]),
        Case(
            "ATSEvaluation", full: evaluation(full: true), minimal: evaluation(full: false),
            omittable: ["osVersion", "ambiguities"]),
        Case(
            "ATSEvaluation.Reading", full: evaluation(full: true).readings[0],
            minimal: evaluation(full: false).readings[0]),
        Case(
            "ATSViolation", full: violation(full: true), minimal: violation(full: false),
            omittable: ["keyPathComponents"]),
        Case(
            "Finding", full: finding(full: true), minimal: finding(full: false),
            omittable: ["keyPathComponents", "configuration"]),
        Case(
            "EndpointResult", full: endpoint(full: true), minimal: endpoint(full: false),
            omittable: [
                "probeLibrary", "scheme", "scope", "unusedConnections", "serverConnections", "source", "proxy",
                "simulations", "helloSizeTolerance",
            ],
            // Encodes flat: the profile's fields beside `ats` and `source`, and the readiness derived from the
            // simulations (`quantumSecure`) when there are some.
            flattened: ["profile"],
            extraKeys: {
                ContractKeysTests.storedProperties(of: $0.profile)
                    .union($0.profile.simulations == nil ? [] : ["quantumSecure"])
            }),
        Case(
            "SourceLocation", full: SourceLocation(file: "f", line: 1), minimal: SourceLocation(file: "f"),
            omittable: ["line"]),
        Case(
            "ScanReport", full: shardedReport(),
            minimal: ScanReport(endpoints: []), omittable: ["shard", "trustData", "partial"]),
        Case(
            "PartialScan", full: PartialScan(signal: "SIGINT", notScanned: 3, graceSeconds: 2),
            minimal: PartialScan(notScanned: 0, graceSeconds: 2), omittable: ["signal"]),
        Case(
            "TrustDataSource", full: trustDataSource(),
            minimal: TrustDataSource(source: .bundled, name: "Apple's CT log list"),
            omittable: ["version", "date", "location", "fetchedAt", "sha256"]),
        Case(
            "TrustDataInfo", full: TrustDataInfo(ctLogList: trustDataSource(), roots: trustDataSource()),
            minimal: TrustDataInfo(), omittable: ["ctLogList", "roots"]),
        Case(
            "IssuerFetch",
            full: IssuerFetch(
                certificate: "CN=a", url: "http://ca.test/a.der", status: .failed, reason: "refused",
                certificates: ["00"], cached: true),
            minimal: IssuerFetch(certificate: "CN=a", url: "http://ca.test/a.der", status: .fetched),
            omittable: ["reason", "cached"]),
        Case(
            "ReportShard", full: ReportShard(index: 1, count: 2, total: 3, selected: 1, positions: [2]),
            minimal: ReportShard(index: 1, count: 1, total: 0, selected: 0, positions: [])),
        Case(
            "ReportSummary",
            full: summary(), minimal: ReportSummary(),
            omittable: ["quantumSecure", "notQuantumSecure", "quantumUnknown"]),
        Case("ToolInfo", full: ToolInfo(), minimal: ToolInfo()),
        Case("DiagnosticTest", full: test(full: true), minimal: test(full: false)),
        Case("MinimalException", full: exception(full: true), minimal: exception(full: false)),
        Case(
            "DiagnosticsReport",
            full: DiagnosticsReport(
                url: "https://a", host: "a", osVersion: "26.4", tests: [test(full: true)],
                minimalException: exception(full: true), notes: ["n"]),
            minimal: DiagnosticsReport(
                url: "https://a", host: "a", osVersion: "26.4", tests: [], minimalException: exception(full: false))),
        Case(
            "Target", full: Target(scheme: "https", host: "a", port: 8443, path: "/p", original: "https://a:8443/p"),
            minimal: Target(host: "a"), omittable: ["path"]),
        Case(
            "PolicyExplanation", full: explanation(), minimal: PolicyExplanation(hosts: []),
            omittable: ["lowestOS", "lowestOSSource", "configuration"]),
        Case(
            "HostPatternPolicy",
            full: { () -> HostPatternPolicy in
                var host = explanation().hosts[0]
                host.neverMatches = "exception domain key *.a has a wildcard, which never matches"
                host.cannotBeJudged = "the key refers to a build setting that is not given"
                return host
            }(),
            minimal: HostPatternPolicy(pattern: "a", kind: .localName, exampleHost: "a", eras: []),
            omittable: ["neverMatches", "cannotBeJudged"]),
        Case(
            "EraPolicy", full: explanation().hosts[0].eras[0],
            minimal: EraPolicy(era: "9", osVersion: "9.0", clients: [])),
        Case(
            "ClientPolicy", full: clientPolicy(), minimal: clientPolicy(full: false),
            omittable: ["decidedByComponents"]),
        Case("ConflictingReading", full: conflict(), minimal: conflict()),
    ]

    @Test("with every optional set, every stored property is encoded, and the value round-trips", arguments: cases)
    func full(_ c: Case) throws {
        let (keys, properties, roundTrips) = try c.full()
        #expect(keys == properties, "encoded \(keys.sorted()) but stores \(properties.sorted())")
        #expect(roundTrips)
    }

    @Test(
        "with every optional nil, only the listed properties are omitted, and the value round-trips", arguments: cases)
    func minimal(_ c: Case) throws {
        let (keys, properties, roundTrips) = try c.minimal()
        #expect(keys.isSubset(of: properties), "encoded keys \(keys.subtracting(properties).sorted()) are not stored")
        let missing = properties.subtracting(keys)
        #expect(missing.isSubset(of: c.omittable), "\(missing.subtracting(c.omittable).sorted()) missing from the JSON")
        #expect(roundTrips)
    }

    @Test("a profile saved before retries and drops were counted reads them as 0")
    func countsDefaultToZero() throws {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let counted = Self.profile(full: true)
        var object = try #require(try JSONSerialization.jsonObject(with: encoder.encode(counted)) as? [String: Any])
        #expect(object["retries"] as? Int == 2 && object["drops"] as? Int == 3)
        object["retries"] = nil
        object["drops"] = nil
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let old = try decoder.decode(ServerProfile.self, from: JSONSerialization.data(withJSONObject: object))
        #expect(old.retries == 0 && old.drops == 0 && old.handshakes == counted.handshakes)
        object["drops"] = "many"
        #expect(throws: DecodingError.self) {
            try decoder.decode(ServerProfile.self, from: JSONSerialization.data(withJSONObject: object))
        }
    }

    @Test("explicit-null fields decode from a missing key and from null alike")
    func missingAndNull() throws {
        let decoder = JSONDecoder()
        let missing = try decoder.decode(ATSViolation.self, from: Data(#"{"rule":"trust.ct","message":"m"}"#.utf8))
        let null = try decoder.decode(
            ATSViolation.self, from: Data(#"{"rule":"trust.ct","message":"m","keyPath":null}"#.utf8))
        #expect(missing == null && missing.keyPath == nil)
        let set = try decoder.decode(
            ATSViolation.self, from: Data(#"{"rule":"trust.ct","message":"m","keyPath":"k"}"#.utf8))
        #expect(set.keyPath == "k")
        #expect(throws: DecodingError.self) {
            try decoder.decode(ATSViolation.self, from: Data(#"{"rule":"trust.ct","message":"m","keyPath":3}"#.utf8))
        }
    }
}

extension ContractKeysTests {
    /// A report with every property set, `shard` (a `--shard I/N` run) included.
    static func shardedReport() -> ScanReport {
        var report = ScanReport(endpoints: [endpoint(full: true)], findings: [finding(full: true)])
        report.shard = ReportShard(index: 2, count: 3, total: 5, selected: 1, positions: [4])
        report.trustData = TrustDataInfo(ctLogList: trustDataSource())
        report.partial = PartialScan(signal: "SIGTERM", notScanned: 1, graceSeconds: 2)
        return report
    }

    static func trustDataSource() -> TrustDataSource {
        TrustDataSource(
            source: .updated, name: "Apple's CT log list", version: "901", date: "2026-11-20",
            location: "https://valid.apple.com/ct/log_list/current_log_list.json", fetchedAt: date, sha256: "ab")
    }
}
