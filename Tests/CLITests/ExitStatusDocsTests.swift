import Foundation
import Judging
import Testing

/// The exit codes are listed identically wherever a user reads them (issue 24): the README, `atscheck --help` and
/// docs/usage.md all carry ``ExitStatus/summary``, 73 included.
@Suite("exit codes, documented alike (CLI)")
struct ExitStatusDocsTests {
    static func squeezed(_ text: String) -> String {
        text.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    @Test("README, --help and docs/usage.md list every exit code in the same words")
    func sameEverywhere() throws {
        let sentence = "Exit status: \(ExitStatus.summary)."
        #expect(ExitStatus.summary.contains("73 ") && ExitStatus.summary.contains("65 "))
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        for file in ["README.md", "docs/usage.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(file), encoding: .utf8)
            #expect(Self.squeezed(text).contains(sentence), "\(file)")
        }
        let help = try CLI.run(["--help"])
        #expect(Self.squeezed(help.stdout).contains(sentence), "\(help.stdout)")
    }
}
