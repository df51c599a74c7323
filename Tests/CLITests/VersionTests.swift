import Foundation
import TLSModel
import Testing

@Suite("atscheck --version (CLI)")
struct VersionTests {
    @Test("--version: the version every report carries first, then the commit, the OpenSSL and the Apple data")
    func version() throws {
        let result = try CLI.run(["--version"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n").map(String.init)
        #expect(lines.first == ToolInfo.currentVersion, "scripts read the first line")
        #expect(lines.contains { $0.hasPrefix("commit: ") })
        // The OpenSSL the binary runs with, as OpenSSL names itself ("OpenSSL 3.0.x ...").
        let openssl = try #require(lines.first { $0.hasPrefix("OpenSSL: ") })
        #expect(openssl.hasPrefix("OpenSSL: OpenSSL 3."))
        #expect(openssl.contains("built against OpenSSL"))
        let stores = try #require(lines.first { $0.hasPrefix("Apple trust stores: ") })
        #expect(stores.contains("security_certificates-"))
        #expect(lines.contains { $0.hasPrefix("Apple CT log list: version ") })
        #expect(lines.contains { $0.contains("apple-oss-distributions/security_certificates") })
    }
}
