import Foundation
import Testing

@testable import ATSPolicy

/// Bytes Foundation's plist parser accepts but FoundationXML cannot take, and malformed plists whose errors
/// must say where (issue 8).
@Suite("PlistDocument with hostile and malformed input")
struct PlistHostileInputTests {
    static func bytes(_ parts: [UInt8]...) -> Data { Data(parts.joined()) }
    static func ascii(_ text: String) -> [UInt8] { Array(text.utf8) }

    static let invalidUTF8Cases: [(String, Data)] = [
        (
            "0xFF in a comment",
            bytes(
                ascii("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n<!-- bad "), [0xFF],
                ascii(
                    " "
                        + "-->\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSAllowsArbitraryLoads</key>\n<true/>\n</dict>\n</dict>\n</plist>\n"
                ))
        ),
        (
            "a truncated sequence in a comment, no declaration",
            bytes(
                ascii("<plist>\n<dict>\n<!-- "), [0xE2, 0x82],
                ascii(
                    " "
                        + "-->\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSAllowsArbitraryLoads</key>\n<true/>\n</dict>\n</dict>\n</plist>\n"
                ))
        ),
        (
            "a lone continuation byte in a processing instruction",
            bytes(
                ascii("<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<?pi "), [0x80],
                ascii(
                    "?>\n<key>NSAppTransportSecurity</key>\n<dict>\n<key>NSAllowsArbitraryLoads</key>\n<true/>\n</dict>\n</dict>\n</plist>\n"
                ))
        ),
    ]

    @Test("ill-formed UTF-8 outside values is read, with the right lines", arguments: invalidUTF8Cases)
    func invalidUTF8(name: String, data: Data) throws {
        let document = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(document.atsDictionary?["NSAllowsArbitraryLoads"] as? Bool == true, "\(name)")
        #expect(document.line(forKeyPath: ["NSAppTransportSecurity"]) != nil, "\(name)")
        #expect(
            document.line(forATSKeyPath: ["NSAllowsArbitraryLoads"])
                == document.line(forKeyPath: ["NSAppTransportSecurity"]).map { $0 + 2 })
        _ = PlistLinter.lint(document)  // must not trap either
    }

    @Test("a Latin-1 plist keeps its key lines")
    func latin1() throws {
        let data = Self.bytes(
            Self.ascii("<?xml version=\"1.0\" encoding=\"ISO-8859-1\"?>\n<plist>\n<dict>\n<!-- caf"), [0xE9],
            Self.ascii(" -->\n<key>NSAppTransportSecurity</key>\n<dict/>\n</dict>\n</plist>\n"))
        let document = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(document.line(forKeyPath: ["NSAppTransportSecurity"]) == 5)
    }

    @Test("a UTF-16 plist keeps its key lines")
    func utf16() throws {
        let text =
            "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<plist>\n<dict>\n<key>NSAppTransportSecurity</key>\n<dict/>\n</dict>\n</plist>\n"
        let data = try #require(text.data(using: .utf16))  // with a byte-order mark
        let document = try PlistDocument.parse(data: data, file: "Info.plist")
        #expect(document.line(forKeyPath: ["NSAppTransportSecurity"]) == 4)
    }

    /// (name, bytes, expected line or nil for `FILE: reason`, a word the reason must hold)
    static let malformedCases: [(String, Data, Int?, String)] = [
        (
            "value missing", Data("<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>a</key>\n</dict>\n</plist>\n".utf8),
            5, "Value missing"
        ),
        (
            "close tag mismatch (Foundation's 'on line N')",
            Data("<?xml version=\"1.0\"?>\n<plist>\n<dict>\n<key>a</key>\n<string>x</dict>\n</plist>\n".utf8), 5,
            "Close tag"
        ),
        (
            "bad integer (Foundation's 'on line N')",
            Data("<plist>\n<dict>\n<key>a</key>\n<integer>zz</integer></dict>\n</plist>\n".utf8), 4, "integer"
        ),
        ("unexpected end of file", Data("<plist><dict><key>a</key><true/>\n\n".utf8), 2, "EOF"),
        (
            "unknown entity", Data("\n\n<plist><dict><key>a</key><string>&bogus;</string></dict></plist>\n".utf8), 3,
            "ampersand"
        ),
        ("corrupt binary plist", bytes(ascii("bplist00"), [0x00, 0x01, 0x02, 0xFF, 0xFF]), nil, "binary"),
        (
            "binary header with a bad trailer", bytes(ascii("bplist00"), [UInt8](repeating: 0xFF, count: 40)), nil,
            "binary"
        ),
    ]

    @Test("malformed plists say FILE:LINE: reason, or FILE: reason where lines mean nothing", arguments: malformedCases)
    func malformed(name: String, data: Data, line: Int?, word: String) throws {
        let error = try #require(throws: PlistError.self) { try PlistDocument.parse(data: data, file: "bad.plist") }
        #expect(error.code == .malformed, "\(name)")
        #expect(error.line == line, "\(name): \(error)")
        #expect(error.reason.localizedCaseInsensitiveContains(word), "\(name): \(error)")
        #expect(!error.description.contains(":0:"))
        #expect(!error.reason.contains("line"), "the line is in the prefix, not repeated: \(error)")
        let prefix = line.map { "bad.plist:\($0): " } ?? "bad.plist: "
        #expect(error.description.hasPrefix(prefix), "\(error)")
    }
}
