import ATSCheckKit
import Foundation
import Judging
import TLSModel
import TLSTestSupport
import Testing

/// The text endpoint list is streamed (issue 8): same entries and lines as parsing the whole text, whatever
/// the chunking, and refusals with the input contract.
@Suite("EndpointList streaming and format guess")
struct EndpointListStreamTests {
    static func file(_ bytes: [UInt8], suffix: String = "") throws -> String {
        let path = TestScratch.file("atscheck-stream", suffix: suffix)
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("streamed and whole-text parses agree, across chunk boundaries and every line ending")
    func agree() throws {
        var text = ""
        for i in 0..<30_000 {
            let ending = ["\n", "\r\n", "\r"][i % 3]
            text +=
                (i % 7 == 0
                    ? "# comment \(i)"
                    : i % 11 == 0 ? "not a target!!" : "127.0.\(i / 256 % 256).\(i % 256):\(1000 + i % 50)") + ending
        }
        let path = try Self.file(Array(text.utf8))
        let streamed = try EndpointList.load(path: path)
        let whole = EndpointList.parseText(text, file: path)
        #expect(streamed.entries == whole.entries)
        #expect(streamed.findings == whole.findings)
        #expect(streamed.entries.count > 20_000)
        #expect(streamed.entries.last?.source.line == whole.entries.last?.source.line)
    }

    @Test("a line that is not UTF-8 deep in a streamed list is refused at its line")
    func notUTF8() throws {
        var bytes = Array(String(repeating: "127.0.0.1:1\n", count: 20_000).utf8)
        bytes += [0x31, 0xFF, 0x0A]
        let path = try Self.file(bytes)
        let error = #expect(throws: InputFileError.self) { try EndpointList.load(path: path) }
        #expect(error?.line == 20_001)
        #expect(error?.description == "\(path):20001: not UTF-8 text")
    }

    @Test(
        "format guess",
        arguments: [
            ("[::1]:443\nexample.com\n", EndpointList.Format.text), ("[2001:db8::1]:8443\n", .text),
            ("[fe80::1%en0]:443\n", .text),
            ("[\"a.example\"]", .json), ("[ {\"url\": \"a\"} ]", .json), ("[1]", .json), ("{\"endpoints\": []}", .json),
            ("\u{FEFF}{\"endpoints\": []}", .json), ("endpoints:\n  - a\n", .yaml), ("a.example\n", .text),
            ("[]", .json),
        ])
    func guess(text: String, format: EndpointList.Format) {
        #expect(EndpointList.guess(text) == format)
    }

    @Test("a YAML list over 4 MB is refused with FILE: larger than 4 MB limit")
    func structuredTooLarge() throws {
        let path = try Self.file(
            Array(("endpoints:\n  - \"" + String(repeating: "a", count: 5 << 20) + "\"\n").utf8), suffix: ".yml")
        let error = #expect(throws: InputFileError.self) { try EndpointList.load(path: path) }
        #expect(error?.description == "\(path): larger than 4 MB limit")
    }

    @Test("JSON errors name the line of 'around character N'")
    func jsonCharacterOffset() throws {
        let error = #expect(throws: InputFileError.self) {
            try EndpointList.parse(text: "{\"endpoints\": [\n\"a\",\n\"b\",\n}\n", file: "e.json", format: .json)
        }
        #expect(error?.line == 4, "\(String(describing: error))")
    }
}
