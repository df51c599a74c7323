import ATSCheckKit
import Foundation
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// `--pins PATH`: certificates, pin-set files and Info.plists, and FILE:LINE errors for malformed material.
@Suite("Pin material loader")
struct PinMaterialLoaderTests {
    func directory(_ files: [String: Data]) throws -> String {
        let dir = TestScratch.file("atscheck-pins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        for (name, data) in files { try data.write(to: URL(fileURLWithPath: dir + "/" + name)) }
        return dir
    }

    func expectError(_ files: [String: Data], _ name: String, line: Int?, contains: String) throws {
        let dir = try directory(files)
        do {
            _ = try PinMaterialLoader.load(dir + "/" + name)
            Issue.record("\(name) loaded")
        } catch let error as InputFileError {
            #expect(error.line == line, "\(error)")
            #expect(error.reason.contains(contains), "\(error)")
            #expect(error.description.hasPrefix(dir + "/" + name + (line.map { ":\($0)" } ?? "") + ": "))
        }
    }

    @Test("every file under the repository's Pins/ loads")
    func repositoryPins() throws {
        let pins = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
            .appendingPathComponent("Pins").path
        let loaded = try PinMaterialLoader.load(pins)
        let onDisk = (FileManager.default.subpaths(atPath: pins) ?? []).filter {
            PinMaterialLoader.extensions.contains(($0 as NSString).pathExtension.lowercased())
        }
        #expect(loaded.files.count == onDisk.count)
        #expect(loaded.files.count >= 5)
        #expect(loaded.pinSet != nil)
        #expect(loaded.pinnedDomains != nil)
        #expect(!loaded.certificates.isEmpty)
        // The demo servers are named under .test, which TrustKit's public suffix list lacks: TrustKit would refuse
        // the demo's TrustKit material at launch, and that is the only error.
        let errors = loaded.findings.filter { $0.severity == .error }
        #expect(
            errors.allSatisfy {
                $0.rule == RuleID.Pins.trustKitConfigRejected
                    && $0.message.contains("'.test' is not a top-level domain")
            }, "\(errors)")
        #expect(!loaded.trustKitRefusals.isEmpty)
        #expect(loaded.trustKitRefusals.allSatisfy { $0.refusal.code == .invalidDomain })
    }

    @Test("DER, PEM and PEM-in-.cer certificates, a pin-set file and an Info.plist, from one directory")
    func directoryOfMaterial() throws {
        let pki = TestPKI.shared
        let plist = """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0"><dict>
              <key>NSAppTransportSecurity</key><dict><key>NSPinnedDomains</key><dict>
                <key>api.example.com</key><dict><key>NSPinnedCAIdentities</key><array>
                  <dict><key>SPKI-SHA256-BASE64</key><string>YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=</string></dict>
                </array></dict></dict></dict>
            </dict></plist>
            """
        let dir = try directory([
            "a.cer": pki.intermediate.der,
            "b.pem": Data(pki.root.pem.utf8),
            "c.cer": Data(pki.root.pem.utf8),
            "set.yaml": Data(
                ("domains:\n  api.example.com:\n    pins:\n      - YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=\n     "
                    + " - EBXX9BOlOq+wYH7NbtxqeMIavcUBkow53QKlwqIbw+M=\n")
                    .utf8),
            "Info.plist": Data(plist.utf8),
            "README.md": Data("not material".utf8),
        ])
        let loaded = try PinMaterialLoader.load(dir)
        #expect(loaded.files.count == 5)
        #expect(loaded.certificates.count == 3)
        #expect(loaded.bundledCertificates.count == 2)
        let pem = try #require(loaded.findings.first { $0.rule == RuleID.Pins.pemInCer })
        #expect(pem.file == dir + "/c.cer")
        #expect(loaded.pinSet?.domains["api.example.com"]?.pins.count == 2)
        #expect(loaded.pinnedDomains?.domains["api.example.com"]?.caIdentities?.count == 1)
    }

    @Test("malformed material is FILE:LINE: reason")
    func malformed() throws {
        try expectError(
            ["p.yaml": Data("domains:\n  a.example.com:\n    pins: [x]\n    enforce: maybe\n".utf8)], "p.yaml", line: 4,
            contains: "enforce must be true or false")
        try expectError(
            ["p.json": Data("{\"domains\": {\"a.example.com\": {\"pins\": [], \"colour\": 1}}}".utf8)], "p.json",
            line: 1, contains: "unknown key 'colour'")
        try expectError(
            ["p.yaml": Data("domains:\n  a.example.com:\n    expirationDate: tomorrow\n    pins: []\n".utf8)], "p.yaml",
            line: 3, contains: "YYYY-MM-DD")
        try expectError(["p.json": Data("{\"domains\": [}".utf8)], "p.json", line: 1, contains: "malformed JSON")
        try expectError(
            ["x.pem": Data("junk\n-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n".utf8)], "x.pem",
            line: 2, contains: "not a certificate")
        try expectError(
            ["k.pem": Data("\n\n-----BEGIN PRIVATE KEY-----\n".utf8)], "k.pem", line: 3,
            contains: "not a certificate block")
        try expectError(
            ["d.cer": Data([0x30, 0x03, 0x02, 0x01, 0x01])], "d.cer", line: nil, contains: "not a DER certificate")
        try expectError(["n.txt": Data()], "n.txt", line: nil, contains: "not a pin file")
    }

    @Test("pin-set findings carry the line of the pin")
    func findingLines() throws {
        let dir = try directory([
            "p.yaml": Data(
                ("domains:\n  a.example.com:\n    pins:\n      - YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI=\n      "
                    + "- not-base64!\n")
                    .utf8)
        ])
        let loaded = try PinMaterialLoader.load(dir + "/p.yaml")
        let malformed = try #require(loaded.findings.first { $0.rule == RuleID.Pins.pinMalformed })
        #expect(malformed.line == 5)
    }

    @Test("a PEM file over the 1 MB limit is refused")
    func sizeLimit() throws {
        try expectError(
            ["big.pem": Data(repeating: 0x41, count: (1 << 20) + 1)], "big.pem", line: nil,
            contains: "larger than 1 MB limit")
    }
}
