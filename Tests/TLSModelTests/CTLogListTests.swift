import Foundation
import Testing

@testable import TLSModel

/// Reading a CT log list: its date (docs/apple-rules.md §2.3d, added 2026-11-27), and malformed files named at their
/// line and column.
@Suite("CT log list: date and malformed input")
struct CTLogListTests {
    static func list(_ extra: String, logState: String = #"{"usable": {"timestamp": "2025-03-01T00:00:00Z"}}"#) -> Data
    {
        Data(
            """
            {"version": "9", \(extra)
             "operators": [{"name": "Op", "logs": [{"description": "L", "key": "AQID",
              "log_id": "\(Data(repeating: 7, count: 32).base64EncodedString())", "state": \(logState)}]}]}
            """.utf8)
    }

    @Test("log_list_timestamp is the list's date")
    func timestamp() throws {
        let parsed = try CTLogList.parse(Self.list(#""log_list_timestamp": "2026-11-20T10:00:00Z","#), source: "f")
        #expect(parsed.date == CTLogList.date("2026-11-20T10:00:00Z"))
    }

    @Test("without a timestamp the newest state change dates the list (it is at least that new)")
    func newestState() throws {
        let parsed = try CTLogList.parse(Self.list(""), source: "f")
        #expect(parsed.date == CTLogList.date("2025-03-01T00:00:00Z"))
    }

    @Test("a timestamp that is not a date is refused, naming the field")
    func badTimestamp() {
        #expect(throws: CTLogListError.self) {
            try CTLogList.parse(Self.list(#""log_list_timestamp": 5,"#), source: "f")
        }
        do {
            _ = try CTLogList.parse(Self.list(#""log_list_timestamp": "yesterday","#), source: "f")
        } catch {
            #expect("\(error)".contains("'log_list_timestamp'"))
        }
    }

    @Test(
        "malformed JSON is located at its line and column",
        arguments: [
            ("{\n \"a\": [1,\n 2,, 3]\n}", "line 3, column 4"),
            ("{\"version\": \"1\"\n\"operators\": []}", "line 2, column 1"),
        ])
    func located(text: String, position: String) {
        do {
            _ = try CTLogList.parse(Data(text.utf8), source: "list.json")
            Issue.record("parsed malformed JSON")
        } catch {
            #expect("\(error)".hasPrefix("list.json: not JSON at \(position) ("), "\(error)")
        }
    }

    @Test("line and column count bytes from 1")
    func positions() {
        let data = Data("ab\ncd\n\nx".utf8)
        #expect(JSONErrorPosition.position(of: 0, in: data) == (1, 1))
        #expect(JSONErrorPosition.position(of: 4, in: data) == (2, 2))
        #expect(JSONErrorPosition.position(of: 7, in: data) == (4, 1))
    }
}
