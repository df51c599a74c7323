import Foundation
import Pinning
import TLSModel
import Testing

@Suite("Pin configurations: TSKConfiguration, NSPinnedDomains, pin-set files")
struct ConfigurationParsingTests {
    static let pinA = PinFixtures.spki("a")
    static let pinB = PinFixtures.spki("b")

    @Test("TSKConfiguration: keys, defaults and the kSKExclude… spelling")
    func trustKit() throws {
        let config: [String: Any] = [
            "TSKSwizzleNetworkDelegates": false,
            "TSKPinnedDomains": [
                "example.com": [
                    "TSKPublicKeyHashes": [Self.pinA, Self.pinB], "TSKIncludeSubdomains": true,
                    "TSKEnforcePinning": false,
                    "TSKExpirationDate": "2027-06-30",
                ] as [String: Any],
                "skip.example.com": ["kSKExcludeSubdomainFromParentPolicy": true],
                "api.example.com": ["TSKPublicKeyHashes": [Self.pinA, Self.pinB]],
            ] as [String: Any],
        ]
        let (set, findings, _) = PinConfigurationParser.trustKit(config, file: "Info.plist")
        #expect(findings.isEmpty, "\(findings.map(\.message))")
        let parent = try #require(set.domains["example.com"])
        #expect(
            parent
                == DomainPins(
                    pins: [Self.pinA, Self.pinB], includeSubdomains: true, enforce: false, expirationDate: "2027-06-30")
        )
        #expect(parent.expiration == CalendarDay.date(from: "2027-06-30"))
        #expect(set.domains["skip.example.com"]?.excludeSubdomainFromParentPolicy == true)
        #expect(set.domains["api.example.com"] == DomainPins(pins: [Self.pinA, Self.pinB]))
    }

    @Test("TSKConfiguration: a placeholder backup pin (AAAA…=) is a note; placeholders only, an error")
    func trustKitPlaceholders() throws {
        let placeholder = String(repeating: "A", count: 43) + "="
        let config: [String: Any] = [
            "TSKPinnedDomains": [
                "api.example.com": ["TSKPublicKeyHashes": [Self.pinA, placeholder]],
                "none.example.com": ["TSKPublicKeyHashes": [placeholder, String(repeating: "B", count: 43) + "="]],
                "real.example.com": ["TSKPublicKeyHashes": [Self.pinA, Self.pinB]],
            ] as [String: Any]
        ]
        let (_, findings, _) = PinConfigurationParser.trustKit(config, file: "Info.plist")
        let placeholders = findings.filter { $0.rule == RuleID.Pins.pinPlaceholder }
        let api = try #require(placeholders.first { $0.message.hasPrefix("api.example.com") })
        #expect(api.severity == .note)
        #expect(api.keyPath == "TSKConfiguration.TSKPinnedDomains.api.example.com.TSKPublicKeyHashes.1")
        #expect(api.message.contains("the one real pin has no working backup"))
        let none = try #require(placeholders.first { $0.message.hasPrefix("none.example.com") })
        #expect(none.severity == .error)
        #expect(!placeholders.contains { $0.message.hasPrefix("real.example.com") })
        #expect(PinPlaceholder.isPlaceholder(base64: placeholder))
        #expect(!PinPlaceholder.isPlaceholder(base64: Self.pinA))
    }

    @Test("TSKConfiguration: what TrustKit refuses at initialisation, as findings at their key paths")
    func trustKitRejects() {
        let config: [String: Any] = [
            "TSKPinnedDomains": [
                "one.example.com": ["TSKPublicKeyHashes": [Self.pinA]],
                "dup.example.com": ["TSKPublicKeyHashes": [Self.pinA, Self.pinA]],
                "hex.example.com": ["TSKPublicKeyHashes": [String(repeating: "ab", count: 32), Self.pinA]],
                "orphan.example.com": ["kSKExcludeSubdomainFromParentPolicy": true],
                "10.0.0.1": ["TSKPublicKeyHashes": [Self.pinA, Self.pinB]],
                "flag.example.com": ["TSKPublicKeyHashes": [Self.pinA, Self.pinB], "TSKEnforcePinning": [true]]
                    as [String: Any],
                "string.example.com": ["TSKPublicKeyHashes": [Self.pinA], "TSKEnforcePinning": "NO"]
                    as [String: Any],
                "report.example.com": ["TSKPublicKeyHashes": [Self.pinA], "TSKEnforcePinning": false] as [String: Any],
            ] as [String: Any]
        ]
        let (set, findings, refusals) = PinConfigurationParser.trustKit(config) { $0.count * 10 }
        func rules(_ domain: String) -> [RuleID] {
            findings.filter { $0.keyPath?.contains("Domains.\(domain)") == true }.map(\.rule)
        }
        #expect(rules("one.example.com") == [RuleID.Pins.trustKitConfigRejected])
        #expect(
            rules("dup.example.com") == [RuleID.Pins.trustKitConfigRejected], "duplicates collapse: one distinct pin")
        #expect(Set(rules("hex.example.com")) == [RuleID.Pins.pinMalformed, RuleID.Pins.trustKitConfigRejected])
        #expect(rules("orphan.example.com") == [RuleID.Pins.trustKitConfigRejected])
        #expect(rules("10.0.0.1") == [RuleID.Pins.trustKitConfigRejected])
        #expect(rules("flag.example.com") == [RuleID.Pins.trustKitConfigRejected], "an array has no -boolValue")
        #expect(rules("string.example.com").isEmpty, "\"NO\" is NO to -boolValue: one pin is enough")
        #expect(set.domains["string.example.com"]?.enforce == false)
        #expect(rules("report.example.com").isEmpty, "one pin is enough when not enforcing")
        #expect(findings.allSatisfy { $0.severity == .error })
        #expect(findings.filter { $0.rule == RuleID.Pins.trustKitConfigRejected }.count == refusals.count)
        #expect(
            findings.contains {
                $0.keyPath == "TSKConfiguration.TSKPinnedDomains.hex.example.com.TSKPublicKeyHashes.0"
                    && $0.rule == RuleID.Pins.trustKitConfigRejected && $0.line == 40
            }, "the line comes from the key path (4 parts here)")
        #expect(
            findings.allSatisfy {
                $0.message.hasSuffix("TrustKit raises at launch: the app would crash")
                    || $0.rule == RuleID.Pins.pinMalformed
            })
        #expect(PinConfigurationParser.trustKit([:]).findings.isEmpty, "TrustKit does not parse an empty configuration")
        #expect(
            PinConfigurationParser.trustKit(["TSKSwizzleNetworkDelegates": false]).findings.map(\.rule) == [
                RuleID.Pins.trustKitConfigRejected
            ])
    }

    @Test("NSPinnedDomains: malformed Base64 dropped, NSIncludesSubdomains only as a boolean, absent vs empty arrays")
    func pinnedDomains() {
        let config: [String: Any] = [
            "api.example.com": [
                "NSIncludesSubdomains": true,
                "NSPinnedCAIdentities": [
                    ["SPKI-SHA256-BASE64": Self.pinA], ["SPKI-SHA256-BASE64": "not base64!"], "not a dict",
                ] as [Any],
            ] as [String: Any],
            "string.example.com": ["NSIncludesSubdomains": "YES", "NSPinnedLeafIdentities": [] as [Any]]
                as [String: Any],
            "broken.example.com": "not a dictionary",
        ]
        let parsed = PinConfigurationParser.pinnedDomains(config)
        #expect(
            parsed.domains["api.example.com"]
                == PinnedDomainEntry(includesSubdomains: true, leafIdentities: nil, caIdentities: [Self.pinA]))
        #expect(
            parsed.domains["string.example.com"]
                == PinnedDomainEntry(includesSubdomains: false, leafIdentities: [], caIdentities: nil))
        #expect(parsed.domains["broken.example.com"] == nil && parsed.domains.count == 2)
    }

    @Test("pin-set files: JSON with TrustKit's defaults, round trip, validation")
    func pinSetFile() throws {
        let json = """
            { "domains": {
                "api.example.com": { "pins": ["\(Self.pinA)", "\(Self.pinB)"], "expirationDate": "2027-06-30" },
                "example.com": { "pins": ["\(Self.pinA)"], "includeSubdomains": true, "enforce": false },
                "legacy.example.com": { "excludeSubdomainFromParentPolicy": true } } }
            """
        let set = try JSONDecoder().decode(PinSet.self, from: Data(json.utf8))
        #expect(
            set.domains["api.example.com"] == DomainPins(pins: [Self.pinA, Self.pinB], expirationDate: "2027-06-30"))
        #expect(set.domains["example.com"]?.enforce == false && set.domains["example.com"]?.includeSubdomains == true)
        #expect(set.domains["legacy.example.com"]?.excludeSubdomainFromParentPolicy == true)
        let again = try JSONDecoder().decode(PinSet.self, from: JSONEncoder().encode(set))
        #expect(again == set)
        #expect(PinSetValidation.findings(set, file: "Pins/api.json").isEmpty)
        #expect(set.allPins == [Self.pinA, Self.pinB].sorted())
    }

    @Test(
        "pin text checks",
        arguments: [
            (PinFixtures.spki("x"), nil as String?),
            (String(repeating: "ab", count: 32), "hex"),
            ("abc def", "whitespace"),
            ("ab-_", "base64url"),
            (Data(count: 20).base64EncodedString(), "20 bytes"),
            (Data(String(repeating: "ab", count: 32).utf8).base64EncodedString(), "hex digest"),
        ])
    func pinText(_ pin: String, _ expected: String?) {
        let problem = SPKIPinText.problem(pin)
        if let expected {
            #expect(problem?.contains(expected) == true, "\(problem ?? "nil")")
        } else {
            #expect(problem == nil)
        }
    }
}
