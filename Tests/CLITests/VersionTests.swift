import Foundation
import TLSModel
import Testing

@Suite("atscheck --version (CLI)")
struct VersionTests {
    @Test("--version prints the version every report carries")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        #expect(result.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == ToolInfo.currentVersion)
    }
}
