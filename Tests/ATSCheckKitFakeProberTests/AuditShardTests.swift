import ATSCheckKit
import Foundation
import Judging
import TLSModel
import Testing

/// A prober that answers from a table of hosts: what each supports, or a failure.
struct TableProber: EndpointProber {
    static let now = Date(timeIntervalSince1970: 1_748_736_000)
    typealias S = CipherSuite
    static let modern: [TLSVersion: [CipherSuite]] = [
        .tls1_2: [S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256], .tls1_3: [S.TLS_AES_128_GCM_SHA256],
    ]
    static let tls10: [TLSVersion: [CipherSuite]] = [.tls1_0: [S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA]]
    static let rsaKx: [TLSVersion: [CipherSuite]] = [.tls1_2: [S.TLS_RSA_WITH_AES_128_GCM_SHA256]]

    var table: [String: [TLSVersion: [CipherSuite]]]
    var down: Set<String> = []

    func scan(_ request: ProbeRequest) async -> ServerProfile {
        let host = request.target.host, port = request.target.port
        if down.contains(host) {
            return ServerProfile(
                target: "\(host):\(port)", host: host, port: port, address: request.connectAddress,
                sni: request.effectiveSNI, status: .unreachable, error: "fake refusal", scannedAt: Date())
        }
        let suites = table[host] ?? Self.modern
        let protocols = TLSVersion.probed.map { v -> ProtocolResult in
            guard let list = suites[v] else { return ProtocolResult(version: v, supported: false) }
            return ProtocolResult(
                version: v, supported: true, cipherSuites: list.map { AcceptedCipherSuite(suite: $0) })
        }
        let leaf = Self.cert("CN=\(host)", sans: [host], days: 90, issuer: "CN=Test Intermediate")
        let intermediate = Self.cert("CN=Test Intermediate", days: 3650, issuer: "CN=Test Root", isCA: true)
        let root = Self.cert("CN=Test Root", days: 7300, issuer: "CN=Test Root", isCA: true)
        return ServerProfile(
            target: "\(host):\(port)", host: host, port: port, address: request.connectAddress ?? "127.0.0.1",
            sni: request.effectiveSNI, status: .completed, handshakes: 4, protocols: protocols,
            certificate: CertificateReport(
                chain: [leaf, intermediate], trusted: true, hostnameMatches: true, verifyError: nil,
                verifiedChain: [leaf, intermediate, root], anchor: .system, verifiedAt: Self.now),
            scannedAt: Date(), durationSeconds: Double.random(in: 0...1))
    }

    static func cert(_ subject: String, sans: [String] = [], days: Double, issuer: String, isCA: Bool? = nil)
        -> CertificateFacts
    {
        let notBefore = now.addingTimeInterval(-30 * 86_400)
        return CertificateFacts(
            subject: subject, issuer: issuer, serialNumber: "01", notBefore: notBefore,
            notAfter: notBefore.addingTimeInterval(days * 86_400 - 1), keyType: "RSA", keyBits: 2048,
            signatureAlgorithm: "sha256WithRSAEncryption", signatureHash: "SHA256", subjectAltNames: sans,
            extendedKeyUsage: isCA == true ? nil : [.serverAuth], isCA: isCA, embeddedSCTs: 3,
            selfSigned: subject == issuer,
            sha256: "00", spkiSHA256: "AA==")
    }
}

@Suite("audit --shard I/N and atscheck merge of audit shards")
struct AuditShardTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        <key>NSAppTransportSecurity</key>
        <dict>
        <key>NSExceptionDomains</key>
        <dict>
        <key>legacy.test</key>
        <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict>
        <key>modern.test</key>
        <dict><key>NSExceptionRequiresForwardSecrecy</key><false/></dict>
        <key>unused.test</key>
        <dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>
        <key>wide.test</key>
        <dict><key>NSIncludesSubdomains</key><true/><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.0</string></dict>
        </dict>
        </dict>
        </dict>
        </plist>
        """
    static let list = """
        # the fleet
        modern.test
        legacy.test
        rsa.test
        http://plain.test/
        down.test
        wide.test
        not a target here
        """ + "\n" + (0..<9).map { "h\($0).test" }.joined(separator: "\n") + "\n"

    static let prober = TableProber(
        table: ["legacy.test": TableProber.tls10, "rsa.test": TableProber.rsaKx, "wide.test": TableProber.tls10],
        down: ["down.test"])

    struct Files {
        var plist: String
        var list: String
        var directory: String
    }

    static func files() throws -> Files {
        let directory = NSTemporaryDirectory() + "atscheck-audit-shards-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        // The caller removes `directory`; a failed write here removes it at once.
        var written = false
        defer { if !written { try? FileManager.default.removeItem(atPath: directory) } }
        let files = Files(plist: directory + "/Info.plist", list: directory + "/endpoints.txt", directory: directory)
        try plist.write(toFile: files.plist, atomically: true, encoding: .utf8)
        try list.write(toFile: files.list, atomically: true, encoding: .utf8)
        written = true
        return files
    }

    static func pipeline() -> ScanPipeline {
        var settings = ScanSettings()
        settings.now = TableProber.now
        settings.expiryWarningDays = 30
        return ScanPipeline(settings: settings, prober: prober)
    }

    static func json(_ result: AuditResult) throws -> String {
        String(decoding: try ShardingTests.encoder().encode(AuditJSON(result: result)), as: UTF8.self)
    }

    static func timeless(_ text: String) throws -> String {
        let pattern = try NSRegularExpression(
            pattern: #"("(scannedAt|durationSeconds|verifiedAt)" : )("[^"]*"|[0-9.eE+-]+)"#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1T")
    }

    /// Runs every shard of a 3-way split and writes each one's JSON, as `audit --shard I/3 --format json` does.
    static func shardFiles(_ files: Files) async throws -> (paths: [String], results: [AuditResult]) {
        var paths: [String] = []
        var results: [AuditResult] = []
        for index in 1...3 {
            let result = try await pipeline().audit(
                plistPath: files.plist, endpointsPath: files.list, now: TableProber.now,
                shard: try Shard(index: index, count: 3))
            let path = files.directory + "/shard-\(index).json"
            try json(result).write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
            results.append(result)
        }
        return (paths, results)
    }

    @Test("merged audit shards give the single audit's JSON byte for byte (modulo timings), debt and exit status")
    func mergeEqualsSingleAudit() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        let single = try await Self.pipeline().audit(
            plistPath: files.plist, endpointsPath: files.list, now: TableProber.now)
        let (paths, shards) = try await Self.shardFiles(files)
        #expect(shards.map(\.report.endpoints.count).reduce(0, +) == single.report.endpoints.count)
        #expect(shards.filter { !$0.report.endpoints.isEmpty }.count >= 2)
        #expect(shards.allSatisfy { $0.shardInputs?.endpoints == files.list && $0.report.shard?.total == 15 })
        // A shard alone cannot tell the whole list's debt (an entry whose endpoints are in another shard looks unused).
        #expect(shards.contains { $0.exceptionDebt != single.exceptionDebt })

        guard case .audit(let merged, let inputs) = try AuditMerge.merge(paths: paths.reversed()) else {
            Issue.record("audit shards merged as a scan report")
            return
        }
        #expect(inputs.plist == files.plist)
        #expect(merged.shardInputs == nil && merged.report.shard == nil)
        #expect(try Self.timeless(Self.json(merged)) == Self.timeless(Self.json(single)))
        #expect(merged.exceptionDebt == single.exceptionDebt)
        #expect(merged.exitStatus == single.exitStatus)
        #expect(merged.exitReason == single.exitReason)
        // What the debt holds: the whole list's verdicts.
        let kinds = Set(merged.exceptionDebt.map { "\($0.kind.rawValue) \($0.domain)" })
        #expect(kinds.contains("no-endpoint unused.test"))
        #expect(kinds.contains("unneeded modern.test"))
        #expect(kinds.contains("missing rsa.test"))
        #expect(merged.exitStatus == .policyFailure)
    }

    @Test("merge refuses audit shards mixed with a scan report, a whole audit, a changed input, a missing shard")
    func mergeRefuses() async throws {
        let files = try Self.files()
        defer { try? FileManager.default.removeItem(atPath: files.directory) }
        let (paths, _) = try await Self.shardFiles(files)
        let scan = await Self.pipeline().scan(
            [], lists: [try EndpointList.load(path: files.list)], shard: try Shard(index: 1, count: 3),
            judge: PolicyJudge())
        let scanPath = files.directory + "/scan-1.json"
        try String(decoding: try ShardingTests.encoder().encode(scan), as: UTF8.self).write(
            toFile: scanPath, atomically: true, encoding: .utf8)
        #expect {
            try AuditMerge.merge(paths: [paths[0], scanPath, paths[1], paths[2]])
        } throws: { ($0 as? MergeError)?.description.contains("scan report") == true }

        let whole = try await Self.pipeline().audit(
            plistPath: files.plist, endpointsPath: files.list, now: TableProber.now)
        let wholePath = files.directory + "/whole.json"
        try Self.json(whole).write(toFile: wholePath, atomically: true, encoding: .utf8)
        #expect {
            try AuditMerge.merge(paths: [wholePath])
        } throws: { ($0 as? MergeError)?.description.contains("not a shard") == true }

        #expect(throws: MergeError("shard 2/3 missing; given: \(paths[0]) (1/3), \(paths[2]) (3/3)")) {
            try AuditMerge.merge(paths: [paths[0], paths[2]])
        }

        try (Self.list + "late.test\n").write(toFile: files.list, atomically: true, encoding: .utf8)
        #expect {
            try AuditMerge.merge(paths: paths)
        } throws: { ($0 as? MergeError)?.description.contains("changed since the shards ran") == true }
    }
}
