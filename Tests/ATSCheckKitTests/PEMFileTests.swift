import ATSCheckKit
import ATSPolicy
import Foundation
import TLSTestSupport
import Testing

/// `--ca-file` and `caFile:` are input files: a malformed one is exit 65 with `FILE:LINE: reason` before any
/// scan (issue 8: it used to fail every endpoint and exit 2).
@Suite("PEM certificate files")
struct PEMFileTests {
    static let root = TestPKI.shared.rootPEM

    /// The root's PEM with its base64 lines, for building broken variants.
    static var rootLines: [String] { root.split(separator: "\n").map(String.init) }

    static let malformed: [(label: String, text: String, line: Int?, reason: String)] = [
        ("empty file", "", nil, "no PEM certificate"),
        ("text with no PEM block", "hello\nworld\n", nil, "no PEM certificate"),
        (
            "BEGIN without END", "# staging root\n" + rootLines.dropLast().joined(separator: "\n") + "\n", 2,
            "has no END line"
        ),
        (
            "mismatched END", "-----BEGIN CERTIFICATE-----\nAAAA\n-----END PRIVATE KEY-----\n", 3,
            "closes the CERTIFICATE block opened on line 1"
        ),
        (
            "a second BEGIN inside a block", "-----BEGIN CERTIFICATE-----\nAAAA\n-----BEGIN CERTIFICATE-----\n", 1,
            "has no END line"
        ),
        (
            "bad base64", "\n\n-----BEGIN CERTIFICATE-----\n!!!not base64!!!\n-----END CERTIFICATE-----\n", 3,
            "not valid base64"
        ),
        (
            "base64 that is not X.509", "-----BEGIN CERTIFICATE-----\naGVsbG8gd29ybGQ=\n-----END CERTIFICATE-----\n", 1,
            "not a certificate"
        ),
        ("DER instead of PEM", "0\u{03}\u{01}\u{01}", nil, "a DER certificate, not PEM"),
    ]

    @Test("malformed files name the file, the line of the bad block, and why", arguments: 0..<malformed.count)
    func malformedFiles(index: Int) throws {
        let c = Self.malformed[index]
        let path = try Self.write(c.text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let error = try #require(throws: InputFileError.self) { try PEMFile.certificates(path: path) }
        #expect(error.file == path, "\(c.label)")
        #expect(error.line == c.line, "\(c.label)")
        #expect(error.reason.contains(c.reason), "\(c.label): \(error.reason)")
        #expect(!error.description.contains(":0:"))
    }

    @Test("a bundle with comments, a key block and two certificates reads both, with their lines")
    func bundle() throws {
        let text =
            "# bundle\n" + Self.root + "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n" + Self.root
        let path = try Self.write(text)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let certificates = try PEMFile.certificates(path: path)
        #expect(certificates.map(\.line) == [2, 2 + Self.rootLines.count + 3])
        #expect(certificates.allSatisfy { $0.facts.isCA == true && $0.facts.selfSigned })
    }

    @Test("missing and oversized files are input errors")
    func missingAndLarge() throws {
        let missing = try #require(throws: InputFileError.self) {
            try PEMFile.certificates(path: "/nonexistent/ca.pem")
        }
        #expect(missing.reason == "no such file")
        let path = try Self.write(String(repeating: "A", count: InputLimits.pemBytes + 1))
        defer { try? FileManager.default.removeItem(atPath: path) }
        let large = try #require(throws: InputFileError.self) { try PEMFile.certificates(path: path) }
        #expect(large.reason.contains("MB limit"))
    }

    static func write(_ text: String) throws -> String {
        let path = TestScratch.file("atscheck-pem", suffix: ".pem")
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }
}
