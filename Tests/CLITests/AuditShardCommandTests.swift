import Foundation
import TLSTestSupport
import Testing

/// `atscheck audit --shard I/N` and `atscheck merge` of the shards, end to end on loopback (issue 10).
@Suite("audit --shard and merge (CLI)", .serialized)
struct AuditShardCommandTests {
    static func timeless(_ text: String) throws -> String {
        let pattern = try NSRegularExpression(
            pattern: #"("(scannedAt|durationSeconds|verifiedAt)" : )("[^"]*"|[0-9.eE+-]+)"#)
        return pattern.stringByReplacingMatches(
            in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1T")
    }

    @Test("merged shards: the single audit's JSON (modulo timings), SARIF, exit status; scan and audit mixed: 65")
    func mergeEqualsSingleAudit() async throws {
        let chain = [try TestPKI.shared.leaf(.leaf("localhost")), TestPKI.shared.intermediate]
        let modern = try TestTLSServer(.modern(chain: chain))
        let legacy = try TestTLSServer(.only(.tls1_0, cipherList: "ECDHE-RSA-AES128-SHA:AES128-SHA", chain: chain))
        let another = try TestTLSServer(.modern(chain: chain))
        defer { [modern, legacy, another].forEach { $0.stop() } }
        let directory = TestScratch.file("atscheck-cli-audit-shards")
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let ca = directory + "/root.pem"
        try TestPKI.shared.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
        let plist = directory + "/Info.plist"
        try """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
        <key>NSExceptionDomains</key><dict>
        <key>unused.test</key><dict><key>NSExceptionMinimumTLSVersion</key><string>TLSv1.1</string></dict>
        </dict></dict></dict></plist>
        """.write(toFile: plist, atomically: true, encoding: .utf8)
        let list = directory + "/endpoints.txt"
        let lines =
            [modern, legacy, another].map { "https://localhost:\($0.port)" } + (0..<6).map { "http://plain\($0).test/" }
        try (lines.joined(separator: "\n") + "\n").write(toFile: list, atomically: true, encoding: .utf8)
        let base = ["audit", "--plist", plist, "--endpoints", list, "--ca-file", ca, "--timeout", "3"]

        let single = try await CLI.offPool {
            try CLI.run(
                base + [
                    "--format", "json", "--report", "sarif=\(directory)/single.sarif", "--report",
                    "junit=\(directory)/single.xml",
                ])
        }
        #expect(single.status == 1, "\(single.stderr)")  // the TLS 1.0 server needs an exception the plist lacks
        let shards = (1...3).map { "\(directory)/shard-\($0).json" }
        for (index, path) in zip(1...3, shards) {
            let run = try await CLI.offPool {
                try CLI.run(base + ["--shard", "\(index)/3", "--format", "json", "--output", path])
            }
            #expect([0, 1, 2].contains(run.status), "\(run.stderr)")
        }
        let merged = try await CLI.offPool {
            try CLI.run(
                ["merge"] + shards.reversed() + [
                    "--format", "json", "--report", "sarif=\(directory)/merged.sarif", "--report",
                    "junit=\(directory)/merged.xml",
                ])
        }
        #expect(merged.status == single.status, "\(merged.stderr)")
        #expect(merged.stderr == single.stderr)
        #expect(try Self.timeless(merged.stdout) == Self.timeless(single.stdout))
        #expect(merged.stdout.contains("\"exceptionDebt\""))
        #expect(!merged.stdout.contains("\"auditShard\""))
        let singleSARIF = try String(contentsOfFile: "\(directory)/single.sarif", encoding: .utf8)
        let mergedSARIF = try String(contentsOfFile: "\(directory)/merged.sarif", encoding: .utf8)
        #expect(mergedSARIF == singleSARIF)
        let singleJUnit = try String(contentsOfFile: "\(directory)/single.xml", encoding: .utf8)
        #expect(try String(contentsOfFile: "\(directory)/merged.xml", encoding: .utf8) == singleJUnit)
        #expect(singleJUnit.contains("<testcase"))

        let scanShard = "\(directory)/scan-1.json"
        _ = try await CLI.offPool {
            try CLI.run(["scan", "--targets", list, "--shard", "1/3", "--format", "json", "--output", scanShard])
        }
        let mixed = try await CLI.offPool { try CLI.run(["merge", shards[0], scanShard]) }
        #expect(mixed.status == 65)
        #expect(mixed.stderr.contains("is an audit report but"))
    }
}
