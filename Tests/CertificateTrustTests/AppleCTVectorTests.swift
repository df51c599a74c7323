import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import ATSPolicy
@testable import CertificateTrust

/// Apple's own CT test vectors (`AppleCTVectors/`, from trustd's `CTTests.m`; see its PROVENANCE.md): certificates,
/// SCTs and a log list that neither we nor our test log made. Our SCT verification (OpenSSL's CT API, as a probe runs
/// it) must find the SCTs Apple's test relies on, and our counting must give trustd's `kSecTrustCertificateTransparency`.
///
/// The verdict is judged at the SCT level (``CertificateTransparencyRule/Judgement`` over ``SCTStanding``s), not
/// through the evaluator: these leaves were issued in 2015, and the rule skips leaves issued before 2018-10-16.
@Suite("Apple's CT test vectors (trustd CTTests.m)")
struct AppleCTVectorTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "AppleCTVectors")

    /// CTTests.m's `date_20150307`, the verify date of every case here.
    static let march2015 = Date(timeIntervalSinceReferenceDate: 447_450_000)

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
    }

    /// `CTlogs.plist` as a log list: each log usable, its ID the base64 SHA-256 of its key, as trustd keys it.
    static func appleLogList() throws -> CTLogList {
        let data = try Data(contentsOf: folder.appendingPathComponent("CTlogs.plist"))
        let entries = try #require(
            try PropertyListSerialization.propertyList(from: data, format: nil) as? [[String: Any]])
        let logs = try entries.map { entry in
            let key = try #require(entry["key"] as? Data)
            return CTLog(
                id: Data(Digest.sha256([UInt8](key))).base64EncodedString(), key: key,
                description: try #require(entry["description"] as? String),
                operator: try #require(entry["operator"] as? String), state: .usable)
        }
        return CTLogList(version: "CTTests", source: "Apple CTlogs.plist", logs: logs)
    }

    /// One case of CTTests.m.
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var leaf: String
        /// CA_alpha issues serverD and serverF, CA_beta the others (the anchors both share one subject name).
        var issuer: String
        var presented: [String] = []
        var ocsp: [String] = []
        /// The log of each SCT, in the order collected (embedded, then presented); every one must verify.
        var logs: [String]
        /// What CTTests.m asserts for `kSecTrustCertificateTransparency`.
        var appleCT: Bool
        var testDescription: String { "\(name) (\(leaf))" }

        var sources: [SCTFacts.Source] {
            Array(repeating: .embedded, count: logs.count - presented.count)
                + Array(repeating: .tlsExtension, count: presented.count)
        }
    }

    static let embeddedOnly: [Case] = [
        ("server_1601", ["Alfa-1", "Bravo-1"]),
        ("server_1603", ["Alfa-1", "Bravo-1"]),
        ("server_1604", ["Alfa-1", "Bravo-1", "Charlie-1"]),
        ("server_1701", ["Alfa-1", "Bravo-1", "Charlie-1"]),
        ("server_1704", ["Alfa-1", "Bravo-1", "Charlie-1"]),
        ("server_1705", ["Alfa-1", "Bravo-1", "Charlie-1", "Delta-1"]),
        ("server_1801", ["Alfa-1", "Bravo-1", "Charlie-1", "Delta-1"]),
        ("server_1804", ["Alfa-1", "Bravo-1", "Charlie-1", "Delta-1"]),
        ("server_1805", ["Alfa-1", "Bravo-1", "Charlie-1", "Delta-1", "Echo-1"]),
        ("server_2001", ["Alfa-1", "Bravo-1", "Charlie-1", "Delta-1", "Echo-1"]),
    ].map { Case(name: "testOtherCTCerts", leaf: "\($0.0).cer", issuer: "CA_beta.cer", logs: $0.1, appleCT: true) }

    static let serverA = "serverA.cer"
    static let alfa3 = "serverA_proof_Alfa_3.bin"
    static let bravo3 = "serverA_proof_Bravo_3.bin"

    static let cases: [Case] =
        [
            Case(
                name: "testOneEmbeddedSCT", leaf: "serverF.cer", issuer: "CA_alpha.cer",
                logs: ["coreos-ct-test log-alpha"], appleCT: false),
            Case(
                name: "testOnePresentedSCT", leaf: "serverD.cer", issuer: "CA_alpha.cer",
                presented: ["serverD_proof.bin"], logs: ["coreos-ct-test log-alpha"], appleCT: false),
            Case(
                name: "testTwoPresentedSCTs", leaf: serverA, issuer: "CA_beta.cer", presented: [alfa3, bravo3],
                logs: ["Alfa-3", "Bravo-3"], appleCT: true),
        ]
        + ["valid_ocsp_response.bin", "invalid_ocsp_response.bin", "bad_hash_ocsp_response.bin"].map {
            // Apple's OCSP responses carry no SCTs (they answer for another CA's serial 1): one presented SCT is all.
            Case(
                name: "OCSP: \($0)", leaf: serverA, issuer: "CA_beta.cer", presented: [alfa3], ocsp: [$0],
                logs: ["Alfa-3"], appleCT: false)
        } + embeddedOnly

    static func report(_ c: Case, logList: CTLogList?, presented: [[UInt8]]? = nil, leaf: [UInt8]? = nil) throws
        -> CertificateTransparencyReport
    {
        try SCTVerifier.report(
            leafDER: leaf ?? bytes(c.leaf), issuerDER: bytes(c.issuer),
            presented: presented ?? c.presented.map(bytes), ocspResponses: c.ocsp.map(bytes), logList: logList,
            at: march2015)
    }

    /// trustd's count for leaves issued before 2021-04-21 (its `verify_embedded_sct_policy_v1`: 2 under 15 months, 3
    /// to 27, 4 to 39, else 5), which is the documented reading of the `ct-sct-count` CONFLICT for such leaves.
    static let pre2021Readings = Readings(documentedSuites: false).flipped(.ctSCTCount)

    /// Whether our counting policy is satisfied: trustd's `kSecTrustCertificateTransparency`.
    static func isCT(_ report: CertificateTransparencyReport, leaf: String, readings: Readings = pre2021Readings)
        throws -> Bool
    {
        let facts = try X509Certificate(der: bytes(leaf)).facts()
        let standings = report.scts.map { SCTStanding($0, leaf: facts, now: march2015) }
        return CertificateTransparencyRule.Judgement(standings, leaf: facts, readings: readings).passed
    }

    @Test(
        "every SCT Apple's test relies on verifies with its log's key, from the logs and operators expected",
        arguments: cases)
    func signatures(_ c: Case) throws {
        let report = try Self.report(c, logList: Self.appleLogList())
        #expect(report.scts.map(\.signature) == Array(repeating: .valid, count: c.logs.count))
        #expect(report.scts.map(\.source) == c.sources)
        #expect(report.scts.map { $0.log?.description } == c.logs)
        #expect(Set(report.scts.compactMap { $0.log?.id }).count == c.logs.count, "distinct logs")
        let operators = Set(c.logs.map { $0.split(separator: "-").first.map(String.init) ?? $0 })
        #expect(Set(report.scts.compactMap { $0.log?.operator }).count == operators.count, "distinct operators")
        #expect(report.scts.allSatisfy { $0.timestamp < Self.march2015 })
    }

    @Test("our count of valid SCTs gives trustd's CT verdict", arguments: cases)
    func verdict(_ c: Case) throws {
        let report = try Self.report(c, logList: Self.appleLogList())
        #expect(try Self.isCT(report, leaf: c.leaf) == c.appleCT)
    }

    /// Found by this test and fixed: `SCTCounts.source` applied trustd's 2021 table to every leaf, but trustd
    /// (`CertificateTransparency.m`, `verify_tls_ct_policy`) uses it only for leaves issued from 2021-04-21 and its v1
    /// table (whole months) before, so these 1-year and 14-month leaves with 2 SCTs failed where trustd says CT.
    @Test("the source reading of the SCT count agrees with trustd for pre-2021 leaves", arguments: embeddedOnly)
    func sourceReading(_ c: Case) throws {
        let report = try Self.report(c, logList: Self.appleLogList())
        let agrees = try Self.isCT(report, leaf: c.leaf, readings: Readings(documentedSuites: false)) == c.appleCT
        #expect(agrees)
    }

    @Test("against a log list without their logs, the same SCTs are unverified and nothing counts", arguments: cases)
    func unlistedLogs(_ c: Case) throws {
        let all = try Self.appleLogList()
        let others = CTLogList(
            version: all.version, source: "without the cases' logs",
            logs: all.logs.filter { !c.logs.contains($0.description) })
        #expect(others.logs.count == all.logs.count - c.logs.count)
        let report = try Self.report(c, logList: others)
        #expect(report.scts.count == c.logs.count)
        #expect(report.scts.allSatisfy { $0.signature == .unverified && $0.log == nil })
        #expect(try Self.isCT(report, leaf: c.leaf) == false)
    }

    /// Apple's OCSP responses carry no SCTs, so the reading of a response's SCTs is checked on one that does.
    @Test("the SCTs of a DER OCSP response are read, with source ocsp; Apple's responses have none")
    func ocspExtraction() throws {
        let pki = try TestPKI.make(name: "apple-vectors-ocsp")
        let leaf = try pki.leaf(.leaf("localhost"))
        let log = try TestCTLog("OCSP Log", operator: "Operator One")
        let sct = try log.sct(for: leaf, at: Date())
        let response = try TestOCSPResponse.good(for: leaf, issuer: pki.intermediate, scts: [sct])
        #expect(CollectedSCT.stapled(in: [UInt8](response)) == [CollectedSCT(source: .ocsp, bytes: [UInt8](sct))])
        for name in ["valid_ocsp_response.bin", "invalid_ocsp_response.bin", "bad_hash_ocsp_response.bin"] {
            #expect(CollectedSCT.stapled(in: try Self.bytes(name)).isEmpty, "\(name)")
        }
    }

    @Test("a one-byte change to a presented proof makes it invalid, and the verdict falls")
    func corruptedProof() throws {
        let c = try #require(Self.cases.first { $0.name == "testTwoPresentedSCTs" })
        var bravo = try Self.bytes(Self.bravo3)
        bravo[bravo.count - 1] ^= 0x01  // the signature's last byte
        let report = try Self.report(c, logList: Self.appleLogList(), presented: [try Self.bytes(Self.alfa3), bravo])
        #expect(report.scts.map(\.signature) == [.valid, .invalid])
        #expect(try Self.isCT(report, leaf: c.leaf) == false)
    }

    @Test("a one-byte change to the leaf invalidates its embedded SCTs; a presented proof for another leaf is invalid")
    func otherCertificate() throws {
        let c = try #require(Self.embeddedOnly.first)
        var leaf = try Self.bytes(c.leaf)
        // A letter of the subject's common name: the certificate still parses, its precertificate entry differs.
        let name = Array("coreos-ct-test.apple.com".utf8)
        let at = try #require(leaf.indices.first { leaf[$0...].starts(with: name) })
        leaf[at] = UInt8(ascii: "k")
        let changed = try Self.report(c, logList: Self.appleLogList(), leaf: leaf)
        #expect(changed.scts.map(\.signature) == [.invalid, .invalid])

        let serverD = try #require(Self.cases.first { $0.name == "testOnePresentedSCT" })
        let wrong = try Self.report(serverD, logList: Self.appleLogList(), presented: [try Self.bytes(Self.alfa3)])
        #expect(wrong.scts.map(\.signature) == [.invalid])
    }
}

/// CTTests.m's log-state cases (`testShardedLogs`, `testReadOnlyLogs`, `testRetiredLogs`): the same SCTs against
/// CTlogs.plist with dates added to its logs. trustd's keys map to Apple's log list states as its converter
/// (`BuildTrustedCTLogsPlist.py`) writes them: `frozen` is a readonly log's timestamp, `expiry` a retired log's,
/// `start_inclusive`/`end_exclusive` a temporal interval.
extension AppleCTVectorTests {
    enum Edit: Sendable {
        case shard(start: Date, end: Date)
        case readonly(since: Date)
        /// Retired since the date; `only`: the log at that index of CTlogs.plist, else every log.
        case retired(since: Date, only: Int?)
        /// Every log readonly since the date, and the one at `index` retired since it (trustd: frozen and expiry).
        case readonlyAndRetired(since: Date, index: Int)
    }

    struct StateCase: Sendable, CustomTestStringConvertible {
        var name: String
        var leaf: String
        var presented: [String]
        var edit: Edit
        var appleCT: Bool
        var testDescription: String { name }
    }

    /// CTTests.m's `CFAbsoluteTimeGetCurrent()`: after every SCT here. Its `0.0`: 2001-01-01, before every SCT.
    static let now = Date()
    static let epoch = Date(timeIntervalSinceReferenceDate: 0)

    /// Found by these cases and fixed: trustd (`isSCTValidForLogData`, `find_validating_logs`) keeps a frozen log
    /// current, refusing only SCTs timestamped after the freeze; `SCTStanding` took a readonly log as approved once.

    static let stateCases: [StateCase] = [
        StateCase(
            name: "testShardedLogs: expiry within the shard", leaf: serverA, presented: [alfa3, bravo3],
            edit: .shard(start: epoch, end: now), appleCT: true),
        StateCase(
            name: "testShardedLogs: expiry before the shard", leaf: serverA, presented: [alfa3, bravo3],
            edit: .shard(start: now, end: now.addingTimeInterval(86_400)), appleCT: false),
        StateCase(
            name: "testShardedLogs: expiry after the shard", leaf: serverA, presented: [alfa3, bravo3],
            edit: .shard(start: epoch, end: epoch.addingTimeInterval(86_400)), appleCT: false),
        StateCase(
            name: "testReadOnlyLogs: SCTs before the freeze", leaf: serverA, presented: [alfa3, bravo3],
            edit: .readonly(since: now), appleCT: true),
        StateCase(
            name: "testReadOnlyLogs: SCTs after the freeze", leaf: serverA, presented: [alfa3, bravo3],
            edit: .readonly(since: epoch), appleCT: false),
        StateCase(
            name: "testRetiredLogs: presented SCTs from retired logs", leaf: serverA, presented: [alfa3, bravo3],
            edit: .retired(since: now, only: nil), appleCT: false),
        StateCase(
            name: "testRetiredLogs: all embedded SCTs from retired logs", leaf: "server_1601.cer", presented: [],
            edit: .retired(since: now, only: nil), appleCT: false),
        StateCase(
            name: "testRetiredLogs: one embedded SCT from a log retired after it", leaf: "server_1601.cer",
            presented: [], edit: .retired(since: now, only: 0), appleCT: true),
        StateCase(
            name: "testRetiredLogs: one embedded SCT from a log retired before it", leaf: "server_1601.cer",
            presented: [], edit: .retired(since: epoch, only: 0), appleCT: false),
        StateCase(
            name: "testRetiredLogs: one SCT before retirement, one before the freeze", leaf: "server_1601.cer",
            presented: [], edit: .readonlyAndRetired(since: now, index: 0), appleCT: true,
        ),
    ]

    static func logList(_ edit: Edit) throws -> CTLogList {
        var list = try appleLogList()
        for index in list.logs.indices {
            switch edit {
            case .shard(let start, let end): list.logs[index].interval = CTLogInterval(start: start, end: end)
            case .readonly(let since):
                list.logs[index].state = .readonly
                list.logs[index].stateSince = since
            case .retired(let since, let only):
                guard only == nil || only == index else { continue }
                list.logs[index].state = .retired
                list.logs[index].stateSince = since
            case .readonlyAndRetired(let since, let retired):
                list.logs[index].state = index == retired ? .retired : .readonly
                list.logs[index].stateSince = since
            }
        }
        return list
    }

    @Test("log states, shards and dates give trustd's CT verdict", arguments: stateCases)
    func logStates(_ c: StateCase) throws {
        let report = try SCTVerifier.report(
            leafDER: Self.bytes(c.leaf), issuerDER: Self.bytes("CA_beta.cer"), presented: c.presented.map(Self.bytes),
            logList: Self.logList(c.edit), at: Self.march2015)
        // The signatures do not depend on the states: what follows is the count alone.
        #expect(!report.scts.isEmpty && report.scts.allSatisfy { $0.signature == .valid })
        let judged = try Self.isCT(report, leaf: c.leaf)
        #expect(judged == c.appleCT)
    }
}
