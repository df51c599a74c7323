import Foundation
import Testing

@testable import CertificateTrust

/// Replays the certificate fuzzer's seeds and committed crashes (see Tests/Fixtures/fuzz-regressions/README.md).
@Suite("Certificate fuzz seeds and regressions replay")
struct FuzzCertificateRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    @Test("PEM seeds load as PEM, DER seeds parse as DER, and no input traps")
    func replay() throws {
        let folders = ["Fuzz/corpus/FuzzCertificate", "Tests/Fixtures/fuzz-regressions/FuzzCertificate"]
        let files = folders.flatMap {
            (try? FileManager.default.contentsOfDirectory(
                at: Self.root.appendingPathComponent($0), includingPropertiesForKeys: nil)) ?? []
        }
        #expect(!files.isEmpty)
        for url in files {
            let bytes = [UInt8](try Data(contentsOf: url))
            let der = try? X509Certificate(der: bytes)
            let pem = try? X509Certificate.loadPEMFile(url.path)
            _ = der?.facts()
            _ = pem?.map { $0.facts() }
            guard url.path.contains("/Fuzz/corpus/") else { continue }
            if url.pathExtension == "der" { #expect(der != nil, "\(url.lastPathComponent)") }
            if url.pathExtension == "pem" { #expect(pem?.isEmpty == false, "\(url.lastPathComponent)") }
        }
    }
}
