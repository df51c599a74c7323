import Foundation
import TLSTestSupport
import Testing

/// Several reports from one run, text by default, no report on a failed run, atomic report files,
/// `--format github` and `codeclimate`, `--fail-on` (issue 11).
@Suite("atscheck reports for CI (CLI)", .serialized)
struct ReportOutputTests {
    static let plist = """
        <?xml version="1.0" encoding="UTF-8"?>
        <plist version="1.0">
        <dict>
        \t<key>NSAppTransportSecurity</key>
        \t<dict>
        \t\t<key>NSAllowArbitraryLoads</key>
        \t\t<true/>
        \t</dict>
        </dict>
        </plist>
        """

    /// A plist whose only finding is a warning (a trailing-dot exception domain key).
    static let warningOnlyPlist = """
        <plist version="1.0"><dict><key>NSAppTransportSecurity</key><dict>
        <key>NSExceptionDomains</key><dict><key>example.com.</key><dict/></dict>
        </dict></dict></plist>
        """

    static func directory() throws -> String {
        let path = TestScratch.file("atscheck-reports", suffix: "/")
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    @Test("--report FORMAT=PATH, repeated: every report from one run, text on standard output")
    func severalReports() throws {
        let file = try CLI.temporaryFile(Self.plist, suffix: ".plist")
        let dir = try Self.directory()
        let formats = ["sarif", "junit", "markdown", "json", "github", "codeclimate"]
        let result = try CLI.run(["plist", file] + formats.flatMap { ["--report", "\($0)=\(dir)\($0).out"] })
        #expect(result.status == 1, "\(result.stderr)")
        #expect(result.stdout.contains("NSAllowArbitraryLoads"))
        #expect(!result.stdout.hasPrefix("{"), "text by default in a pipe, not JSON")
        let read = { (name: String) in (try? String(contentsOfFile: dir + name + ".out", encoding: .utf8)) ?? "" }
        let sarif = try #require(try JSONSerialization.jsonObject(with: Data(read("sarif").utf8)) as? [String: Any])
        #expect(sarif["version"] as? String == "2.1.0")
        #expect(read("junit").contains("<testsuites"))
        #expect(read("markdown").hasPrefix("## atscheck: plist: 1 error"))
        let json = try #require(try JSONSerialization.jsonObject(with: Data(read("json").utf8)) as? [String: Any])
        #expect((json["findings"] as? [Any])?.isEmpty == false)
        #expect(read("github").contains("::error file=\(file),line=6,title=plist.key.misspelled::"))
        let quality = try #require(
            try JSONSerialization.jsonObject(with: Data(read("codeclimate").utf8)) as? [[String: Any]])
        let issue = try #require(quality.first { $0["check_name"] as? String == "plist.key.misspelled" })
        #expect(issue["severity"] as? String == "major")
        #expect(((issue["location"] as? [String: Any])?["lines"] as? [String: Any])?["begin"] as? Int == 6)
        #expect((issue["fingerprint"] as? String)?.count == 16)
        // Written through a temporary file and renamed: nothing else is left in the folder.
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: dir).sorted() == formats.map { "\($0).out" }.sorted())
    }

    @Test("a report file replaces an older one whole; two outputs to one path are a usage error")
    func replacesAndRefusesClashes() throws {
        let file = try CLI.temporaryFile(Self.plist, suffix: ".plist")
        let dir = try Self.directory()
        try String(repeating: "stale ", count: 10_000).write(toFile: dir + "r.md", atomically: true, encoding: .utf8)
        _ = try CLI.run(["plist", file, "--report", "markdown=\(dir)r.md"])
        let text = try String(contentsOfFile: dir + "r.md", encoding: .utf8)
        #expect(text.hasPrefix("## atscheck:") && !text.contains("stale"))
        let clash = try CLI.run(["plist", file, "--report", "json=\(dir)x", "--report", "sarif=\(dir)x"])
        #expect(clash.status == 64)
        let unknown = try CLI.run(["plist", file, "--report", "pdf=\(dir)x"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("--report"))
    }

    @Test("a report to $GITHUB_STEP_SUMMARY is appended after what earlier steps wrote; other reports are replaced")
    func stepSummaryAppends() throws {
        let file = try CLI.temporaryFile(Self.plist, suffix: ".plist")
        let dir = try Self.directory()
        let summary = dir + "step_summary.md"
        try "## earlier step\n".write(toFile: summary, atomically: true, encoding: .utf8)
        try "old\n".write(toFile: dir + "other.md", atomically: true, encoding: .utf8)
        let environment = ["GITHUB_STEP_SUMMARY": summary]
        let first = try CLI.run(
            ["plist", file, "--report", "markdown=\(summary)", "--report", "markdown=\(dir)other.md"],
            environment: environment)
        #expect(first.status == 1, "\(first.stderr)")
        _ = try CLI.run(["plist", file, "--report", "markdown=\(dir)./step_summary.md"], environment: environment)
        let text = try String(contentsOfFile: summary, encoding: .utf8)
        #expect(text.hasPrefix("## earlier step\n\n## atscheck: plist: 1 error"), "\(text.prefix(200))")
        #expect(text.components(separatedBy: "## atscheck: plist").count == 3, "both runs appended")
        let other = try String(contentsOfFile: dir + "other.md", encoding: .utf8)
        #expect(other.hasPrefix("## atscheck:") && !other.contains("old"))
    }

    @Test(
        "a malformed input exits 65 and writes nothing: not to stdout, not to any --report path",
        arguments: [
            "plist", "audit", "scan-profile", "scan-plist",
        ])
    func errorsWriteNoReport(_ command: String) throws {
        let good = try CLI.temporaryFile(Self.plist, suffix: ".plist")
        let bad = try CLI.temporaryFile("<plist><dict><key>x</key></plist>", suffix: ".plist")
        let badList = try CLI.temporaryFile("endpoints: [unclosed", suffix: ".yaml")
        let badProfile = try CLI.temporaryFile("{ \"not\": \"a profile\" }", suffix: ".json")
        let dir = try Self.directory()
        let reports = [
            "--report", "sarif=\(dir)a.sarif", "--report", "markdown=\(dir)a.md", "--output", "\(dir)out.txt",
        ]
        let args: [String]
        switch command {
        case "plist": args = ["plist", good, bad]
        case "audit": args = ["audit", "--plist", good, "--endpoints", badList]
        case "scan-profile": args = ["scan", "--profile", badProfile]
        default: args = ["scan", "http://a.atscheck.test", "--plist", bad]
        }
        for format in ["text", "json"] {
            let result = try CLI.run(args + reports + ["--format", format])
            #expect(result.status == 65, "\(command): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(command): \(result.stdout)")
            #expect(try FileManager.default.contentsOfDirectory(atPath: dir).isEmpty, "\(command)")
        }
    }

    @Test("--fail-on: warnings fail the run only when asked; never exits 0 and still says why")
    func failOn() throws {
        let warnings = try CLI.temporaryFile(Self.warningOnlyPlist, suffix: ".plist")
        let errors = try CLI.temporaryFile(Self.plist, suffix: ".plist")
        #expect(try CLI.run(["plist", warnings]).status == 0)
        #expect(try CLI.run(["plist", warnings, "--fail-on", "error"]).status == 0)
        let strict = try CLI.run(["plist", warnings, "--fail-on", "warning"])
        #expect(strict.status == 1)
        #expect(strict.stderr.contains("plist.domain.trailing-dot") && strict.stderr.contains("--fail-on warning"))
        let never = try CLI.run(["plist", errors, "--fail-on", "never"])
        #expect(never.status == 0)
        #expect(never.stderr.contains("error-level finding"))
        #expect(try CLI.run(["scan", "http://plain.atscheck.test", "--fail-on", "never"]).status == 0)
        #expect(try CLI.run(["plist", errors, "--fail-on", "sometimes"]).status == 64)
    }

    @Test("the exit-reason line names at most five endpoints, then 'and N more'")
    func andMore() throws {
        let targets = (1...7).map { "http://h\($0).atscheck.test" }
        let result = try CLI.run(["scan"] + targets)
        #expect(result.status == 1)
        #expect(
            result.stderr.contains(
                "7 endpoint(s) fail ATS: h1.atscheck.test:80, h2.atscheck.test:80, h3.atscheck.test:80, h4.atscheck.test:80, h5.atscheck.test:80 and 2 more"
            ), "\(result.stderr)")
    }

    @Test("--format github escapes %, CR, LF in messages and : , in properties")
    func githubEscaping() throws {
        let dir = try Self.directory()
        let path = dir + "odd,name:1.plist"
        let xml =
            "<plist version=\"1.0\"><dict><key>NSAppTransportSecurity</key><dict>\n<key>NSFoo%Bar&#10;x</key><true/>\n</dict></dict></plist>"
        try xml.write(toFile: path, atomically: true, encoding: .utf8)
        let result = try CLI.run(["plist", path, "--format", "github"])
        let line = try #require(
            result.stdout.split(separator: "\n").first { $0.contains("plist.key.unknown") }, "\(result.stdout)")
        #expect(line.hasPrefix("::warning file=\(dir)odd%2Cname%3A1.plist,line=2,title=plist.key.unknown::"), "\(line)")
        #expect(line.contains("NSFoo%25Bar%0Ax"))
        #expect(
            result.stdout.split(separator: "\n").last?.hasPrefix("atscheck: ") == true, "a plain summary line ends it")
    }

    @Test("SARIF partialFingerprints are the same for the same findings in another run and another order")
    func stableFingerprints() throws {
        let hosts = ["http://a.atscheck.test", "http://b.atscheck.test", "http://c.atscheck.test"]
        func fingerprints(_ targets: [String]) throws -> [String: String] {
            let result = try CLI.run(["scan"] + targets + ["--format", "sarif"])
            let sarif = try #require(result.json as? [String: Any], "\(result.stdout)")
            let results = try #require((sarif["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]])
            var byMessage: [String: String] = [:]
            for r in results {
                let text = try #require((r["message"] as? [String: Any])?["text"] as? String)
                byMessage[text] = try #require((r["partialFingerprints"] as? [String: String])?["atscheck/v1"])
            }
            return byMessage
        }
        let first = try fingerprints(hosts)
        let second = try fingerprints(hosts.reversed())
        #expect(first.count == 3)
        #expect(first == second)
        #expect(Set(first.values).count == 3, "different endpoints get different fingerprints")
    }

    @Test("scan TARGET's SARIF is accepted by GitHub: results at the invocation artifact, the workflow under Actions")
    func scanTargetSARIF() throws {
        let targets = ["http://a.atscheck.test", "http://b.atscheck.test"]
        for (environment, artifact) in [
            ([String: String](), "atscheck"),
            (
                ["GITHUB_WORKFLOW_REF": "octo/app/.github/workflows/ats.yml@refs/pull/7/merge"],
                ".github/workflows/ats.yml"
            ),
        ] {
            var env = environment
            if env["GITHUB_WORKFLOW_REF"] == nil { env["GITHUB_WORKFLOW_REF"] = "" }
            let result = try CLI.run(["scan"] + targets + ["--format", "sarif"], environment: env)
            #expect(result.status == 1, "\(result.stderr)")
            #expect(GitHubSARIFRules.violations(result.stdout).isEmpty, "\(GitHubSARIFRules.violations(result.stdout))")
            let schema = try SARIFSchemaValidator.validate(result.stdout)
            #expect(schema.ok, "\(schema.output)")
            let run = try #require(((result.json as? [String: Any])?["runs"] as? [[String: Any]])?.first)
            let results = try #require(run["results"] as? [[String: Any]])
            #expect(results.count == 2)
            for r in results {
                let physical = (r["locations"] as? [[String: Any]])?.first?["physicalLocation"] as? [String: Any]
                let location = physical?["artifactLocation"] as? [String: Any]
                #expect(location?["uri"] as? String == artifact)
                #expect(location?["uriBaseId"] as? String == "%SRCROOT%")
            }
            #expect((run["originalUriBaseIds"] as? [String: Any])?["%SRCROOT%"] != nil)
        }
    }

    @Test("an audit reports each problem once in every CI format, with the counts of the text summary")
    func auditOneAlertPerProblem() throws {
        let list = try CLI.temporaryFile("http://plain.atscheck.test\nhttp://other.atscheck.test\n", suffix: ".txt")
        let dir = TestScratch.file("atscheck-one-alert", suffix: "/")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let text = try CLI.run(
            [
                "audit", "--endpoints", list, "--report", "sarif=\(dir)a.sarif", "--report",
                "codeclimate=\(dir)cc.json",
                "--report", "junit=\(dir)a.xml", "--report", "github=\(dir)gh.txt",
            ], environment: ["COLUMNS": "1000"])
        #expect(text.status == 1, "\(text.stderr)")
        // Each cleartext endpoint: ats.http.cleartext (the endpoint) and audit.endpoint.http (the audit), one problem.
        let summary = try #require(text.stdout.split(separator: "\n").last { $0.hasPrefix("Summary:") })
        #expect(summary.hasSuffix("2 finding(s): 2 error, 0 warning, 0 note"), "\(summary)")
        let sarif = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "a.sarif")))
        let results = ((sarif as? [String: Any])?["runs"] as? [[String: Any]])?.first?["results"] as? [[String: Any]]
        #expect(results?.compactMap { $0["ruleId"] as? String } == ["audit.endpoint.http", "audit.endpoint.http"])
        #expect(results?.allSatisfy { ($0["relatedLocations"] as? [Any])?.count == 1 } == true)
        let climate = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: dir + "cc.json")))
        #expect((climate as? [Any])?.count == 2)
        let junit = try String(contentsOfFile: dir + "a.xml", encoding: .utf8)
        #expect(junit.contains("failures=\"2\""))
        let github = try String(contentsOfFile: dir + "gh.txt", encoding: .utf8)
        #expect(github.split(separator: "\n").filter { $0.hasPrefix("::error") }.count == 2)
    }

    @Test("audit without --plist judges under the default ATS policy and says so")
    func auditWithoutPlist() throws {
        let list = try CLI.temporaryFile("http://plain.atscheck.test\nnot a target at all\n", suffix: ".txt")
        let text = try CLI.run(["audit", "--endpoints", list])
        #expect(text.status == 1, "\(text.stderr)")
        #expect(text.stdout.hasPrefix("No --plist: every endpoint is judged under the default ATS policy"))
        let json = try CLI.run(["audit", "--endpoints", list, "--format", "json"])
        #expect((json.json as? [String: Any])?["policy"] as? String == "default")
        let markdown = try CLI.run(["audit", "--endpoints", list, "--format", "markdown"])
        #expect(markdown.stdout.contains("endpoint list: 1 error"), "\(markdown.stdout)")
        #expect(!markdown.stdout.contains("plist: 1 error"), "endpoint-list findings are not plist errors")
    }

    @Test("a malformed --report names what is wrong: an empty path (an unset variable), an unknown format, no '='")
    func malformedReport() throws {
        let empty = try CLI.run(["scan", "127.0.0.1:9", "--report", "markdown="])
        #expect(empty.status == 64)
        #expect(empty.stderr.contains("the path is empty (an unset variable, such as $GITHUB_STEP_SUMMARY"))
        let unknown = try CLI.run(["scan", "127.0.0.1:9", "--report", "pdf=report.pdf"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown format 'pdf' (formats: text, json"), "\(unknown.stderr)")
        let bare = try CLI.run(["scan", "127.0.0.1:9", "--report", "sarif"])
        #expect(bare.status == 64)
        #expect(bare.stderr.contains("is not FORMAT=PATH"))
    }
}
