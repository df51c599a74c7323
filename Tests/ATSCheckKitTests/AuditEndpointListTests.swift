import ATSCheckKit
import Foundation
import Judging
import TLSModel
import TLSTestSupport
import Testing

@Suite("Endpoint lists")
struct AuditEndpointListTests {
    @Test("text: comments, blank lines, ports, URLs and http:// entries keep their lines")
    func textList() throws {
        let text = """
            # production endpoints
            api.example.com

            https://cdn.example.com/assets/#top   # trailing comment
            legacy.example.com:8443
            http://tracker.example.com/pixel
            \t[::1]:8443
            """
        let list = try EndpointList.parse(text: text, file: "endpoints.txt")
        #expect(list.findings.isEmpty)
        #expect(
            list.entries.map(\.target.hostPort) == [
                "api.example.com:443", "cdn.example.com:443", "legacy.example.com:8443", "tracker.example.com:80",
                "[::1]:8443",
            ])
        #expect(list.entries.map(\.source.line) == [2, 4, 5, 6, 7])
        #expect(list.entries.map(\.isHTTP) == [false, false, false, true, false])
        #expect(list.entries[1].target.path == "/assets/#top")
        #expect(list.entries.allSatisfy { $0.source.file == "endpoints.txt" })
    }

    @Test("text: a bad line is a finding with its line and the other entries survive")
    func textBadLines() throws {
        let text =
            "good.example.com\nftp://files.example.com\nbad.example.com:99999\ntwo words.example.com\nlast.example.com\n"
        let list = try EndpointList.parse(text: text, file: "e.txt")
        #expect(list.entries.map(\.target.host) == ["good.example.com", "last.example.com"])
        #expect(list.entries.map(\.source.line) == [1, 5])
        #expect(list.findings.map(\.rule) == Array(repeating: EndpointListRuleID.invalid, count: 3))
        #expect(list.findings.map(\.line) == [2, 3, 4])
        #expect(list.findings.allSatisfy { $0.severity == .error && $0.file == "e.txt" && !$0.message.contains("\n") })
        #expect(list.findings[0].message.contains("ftp"))
        #expect(list.findings[1].message.contains("99999"))
    }

    @Test("text: a repeated endpoint is a note")
    func duplicates() throws {
        let list = try EndpointList.parse(
            text: "a.example.com\nhttps://a.example.com:443\nb.example.com", file: "e.txt")
        #expect(list.entries.count == 3)
        #expect(list.findings.map(\.rule) == [EndpointListRuleID.duplicate])
        #expect(list.findings.first?.line == 2)
    }

    @Test("YAML: strings and mappings with options, lines, bad items reported")
    func yamlList() throws {
        let yaml = """
            # staging endpoints
            endpoints:
              - https://api.example.com
              - url: https://legacy.example.com:8443/v1
                name: legacy API
                resolve: 127.0.0.1
                sni: legacy.example.com
                caFile: staging-ca.pem
                expect: fail
              - url: nope://x
              - url: https://bad-resolve.example.com
                resolve: not-an-ip
              - url: https://typo.example.com
                expcet: pass
              - http://plain.example.com
            """
        let list = try EndpointList.parse(text: yaml, file: "e.yaml", format: .yaml)
        #expect(
            list.entries.map(\.target.host) == [
                "api.example.com", "legacy.example.com", "typo.example.com", "plain.example.com",
            ])
        #expect(list.entries.map(\.source.line) == [3, 4, 13, 15])
        let legacy = list.entries[1]
        #expect(legacy.resolve == "127.0.0.1")
        #expect(legacy.sni == "legacy.example.com")
        #expect(legacy.caFile == "staging-ca.pem")
        #expect(legacy.expect == .fail)
        #expect(legacy.name == "legacy API")
        #expect(legacy.target.port == 8443)
        #expect(list.entries[3].isHTTP)
        let invalid = list.findings.filter { $0.rule == EndpointListRuleID.invalid }
        #expect(invalid.map(\.line) == [10, 11])
        let unknown = list.findings.filter { $0.rule == EndpointListRuleID.unknownKey }
        #expect(unknown.count == 1)
        #expect(unknown.first?.line == 14)
        #expect(unknown.first?.message.contains("did you mean 'expect'") == true)
    }

    @Test("JSON: the same shape, with lines")
    func jsonList() throws {
        let json = """
            {
            \t"endpoints": [
            \t\t"api.example.com",
            \t\t{ "url": "https://rsa.example.com", "resolve": "::1", "expect": "pass" },
            \t\t{ "name": "no url" }
            \t]
            }
            """
        let list = try EndpointList.parse(text: json, file: "e.json", format: .json)
        #expect(list.entries.map(\.target.host) == ["api.example.com", "rsa.example.com"])
        #expect(list.entries.map(\.source.line) == [3, 4])
        #expect(list.entries[1].resolve == "::1")
        #expect(list.entries[1].expect == .pass)
        #expect(list.findings.map(\.rule) == [EndpointListRuleID.invalid])
        #expect(list.findings.first?.line == 5)
    }

    @Test(
        "a structurally malformed file throws InputFileError",
        arguments: [
            ("endpoints: [a.example.com\n  - b", EndpointList.Format.yaml),
            ("hosts:\n  - a.example.com\n", .yaml),
            ("endpoints: a.example.com\n", .yaml),
            ("{\"endpoints\": [\"a.example.com\",]", .json),
            ("\"just a string\"", .json),
            ("", .yaml),
        ])
    func malformed(_ text: String, _ format: EndpointList.Format) {
        #expect(throws: InputFileError.self) { try EndpointList.parse(text: text, file: "bad", format: format) }
    }

    @Test("a malformed YAML file reports the line of the error")
    func malformedLine() {
        do {
            _ = try EndpointList.parse(text: "endpoints:\n  - a.example.com\n  - [b\n", file: "bad.yaml", format: .yaml)
            Issue.record("expected an error")
        } catch let error as InputFileError {
            #expect(error.file == "bad.yaml")
            #expect(error.line != nil)
            #expect(error.description.hasPrefix("bad.yaml:"))
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test("load: picks the format by extension, resolves caFile beside the list, throws on a missing file")
    func load() throws {
        let dir = TestScratch.file("atscheck-endpoints")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try "endpoints:\n  - url: a.example.com\n    caFile: ca.pem\n".write(
            toFile: dir + "/e.yml", atomically: true, encoding: .utf8)
        let list = try EndpointList.load(path: dir + "/e.yml")
        #expect(list.entries.first?.caFile == dir + "/ca.pem")
        try "a.example.com # endpoints: not yaml\n".write(toFile: dir + "/e.txt", atomically: true, encoding: .utf8)
        #expect(try EndpointList.load(path: dir + "/e.txt").entries.map(\.target.host) == ["a.example.com"])
        #expect(throws: InputFileError.self) { try EndpointList.load(path: dir + "/missing.txt") }
    }
}
