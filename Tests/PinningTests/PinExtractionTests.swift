import Foundation
import Pinning
import TLSModel
import Testing

@Suite("pins extract: recommendation and material")
struct PinExtractionTests {
    static let p = PinFixtures.self

    @Test("a three-certificate path: the issuing CA plus the root as backup, with why")
    func caPlusBackup() throws {
        let r = try #require(PinExtraction.recommend(host: Self.p.host, path: Self.p.path))
        #expect(
            r.primary.position == 1 && r.primary.role == "intermediate"
                && r.primary.spkiSHA256 == Self.p.intermediate.spkiSHA256)
        #expect(r.backup?.position == 2 && r.backup?.role == "anchor")
        #expect(r.reason.contains("second CA") && r.primary.why.contains("renewal"))
        #expect(r.findings.map(\.rule) == [RuleID.Pins.backupOnChain])
    }

    @Test("the advice and the backup warning agree: extract says what pins check will say of its own pair")
    func adviceAgreesWithCheck() throws {
        for path in [Self.p.path, [Self.p.leaf, Self.p.root]] {
            let r = try #require(PinExtraction.recommend(host: Self.p.host, path: path))
            let pins = [r.primary, r.backup].compactMap { $0 }.map { PinIdentity.spki($0.spkiSHA256) }
            let check = OutageWarnings.check(
                pins: pins, path: path, connection: PinConnection(host: Self.p.host, served: path, now: Self.p.now))
            let checked = try #require(check.first { $0.rule == RuleID.Pins.backupOnChain })
            let advised = try #require(r.findings.first { $0.rule == RuleID.Pins.backupOnChain })
            #expect(advised.severity == checked.severity)
            #expect(
                advised.message.hasPrefix(checked.message), "extract: \(advised.message)\ncheck: \(checked.message)")
            // The off-path backup the advice asks for ends the warning.
            let withSpare = OutageWarnings.check(
                pins: pins + [.spki(PinFixtures.spki("spare key"))], path: path,
                connection: PinConnection(host: Self.p.host, served: path, now: Self.p.now))
            #expect(!withSpare.contains { $0.rule == RuleID.Pins.backupOnChain })
        }
    }

    @Test("a self-signed leaf: only itself, no backup, and a warning")
    func selfSigned() throws {
        let r = try #require(PinExtraction.recommend(host: "staging.example.com", path: [Self.p.selfSignedLeaf]))
        #expect(r.primary.position == 0 && r.backup == nil)
        #expect(r.findings.map(\.rule) == [RuleID.Pins.backupMissing])
        let plist =
            PinExtraction.material(r, path: [Self.p.selfSignedLeaf], format: .nspinneddomains).files[0].text ?? ""
        #expect(plist.contains("<key>NSPinnedLeafIdentities</key>") && !plist.contains("NSPinnedCAIdentities"))
        #expect(PinExtraction.recommend(host: "x", path: []) == nil)
    }

    @Test("a two-certificate path: the CA, and the leaf key as a weak backup")
    func twoCertificates() throws {
        let r = try #require(PinExtraction.recommend(host: Self.p.host, path: [Self.p.leaf, Self.p.root]))
        #expect(r.primary.position == 1 && r.backup?.position == 0 && r.backup?.why.contains("reuses the key") == true)
        let plist =
            PinExtraction.material(r, path: [Self.p.leaf, Self.p.root], format: .nspinneddomains).files[0].text ?? ""
        #expect(
            plist.contains("NSPinnedCAIdentities") && !plist.contains(Self.p.leaf.spkiSHA256),
            "a leaf list would be ANDed, not a backup")
    }

    @Test("keys TrustKit cannot hash are flagged")
    func trustKitKeys() throws {
        let path = [Self.p.cert(Self.p.host, keyType: .ed25519, keyBits: 256), Self.p.intermediate, Self.p.root]
        let r = try #require(PinExtraction.recommend(host: Self.p.host, path: path))
        #expect(r.findings.map(\.rule) == [RuleID.Pins.backupOnChain, RuleID.Pins.trustKitUnsupportedKey])
    }

    @Test("material for every format")
    func material() throws {
        let r = try #require(PinExtraction.recommend(host: Self.p.host, path: Self.p.path))
        func m(_ f: PinMaterialFormat) -> PinMaterial { PinExtraction.material(r, path: Self.p.path, format: f) }
        let af = m(.afnetworking)
        #expect(af.files.map(\.name) == ["api.example.com-1-intermediate.cer", "api.example.com-2-anchor.cer"])
        #expect(af.files.map(\.der) == [Self.p.intermediate.der, Self.p.root.der])
        #expect(
            m(.alamofire).files.count == 3
                && m(.alamofire).files.last?.text?.contains("PinnedCertificatesTrustEvaluator") == true)
        let curl = try #require(m(.curl).files.first?.text)
        #expect(curl == "--pinnedpubkey sha256//\(Self.p.leaf.spkiSHA256)\n")
        let trustKit = try #require(m(.trustkit).files.first?.text)
        #expect(
            trustKit.contains("<key>TSKPublicKeyHashes</key>") && trustKit.contains(Self.p.intermediate.spkiSHA256)
                && trustKit.contains(Self.p.root.spkiSHA256))
        let plist = try #require(m(.nspinneddomains).files.first?.text)
        #expect(plist.contains("<key>api.example.com</key>") && plist.contains("<key>SPKI-SHA256-BASE64</key>"))
        for fragment in [trustKit, plist] {
            let wrapped =
                "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>\(fragment)</dict></plist>"
            let parsed =
                try PropertyListSerialization.propertyList(from: Data(wrapped.utf8), format: nil) as? [String: Any]
            #expect(parsed?.count == 1, "a well-formed plist fragment")
        }
        let json = try #require(m(.json).files.first?.text)
        let set = try JSONDecoder().decode(PinSet.self, from: Data(json.utf8))
        #expect(
            set
                == PinSet(domains: [
                    Self.p.host: DomainPins(pins: [Self.p.intermediate.spkiSHA256, Self.p.root.spkiSHA256])
                ]))
        #expect(PinSetValidation.findings(set).isEmpty)
        #expect(Set(PinMaterialFormat.allCases.map { m($0).format }) == Set(PinMaterialFormat.allCases))
    }

    @Test("the TrustKit fragment parses back into the recommended pin set")
    func trustKitRoundTrip() throws {
        let r = try #require(PinExtraction.recommend(host: Self.p.host, path: Self.p.path))
        let text = try #require(PinExtraction.material(r, path: Self.p.path, format: .trustkit).files.first?.text)
        let wrapped = "<?xml version=\"1.0\" encoding=\"UTF-8\"?><plist version=\"1.0\"><dict>\(text)</dict></plist>"
        let plist = try #require(
            try PropertyListSerialization.propertyList(from: Data(wrapped.utf8), format: nil) as? [String: Any])
        let config = try #require(plist["TSKConfiguration"] as? [String: Any])
        let (set, findings, _) = PinConfigurationParser.trustKit(config)
        #expect(
            findings.isEmpty
                && set.domains[Self.p.host]?.pins == [Self.p.intermediate.spkiSHA256, Self.p.root.spkiSHA256])
    }
}
