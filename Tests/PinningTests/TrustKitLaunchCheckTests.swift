import Foundation
import Pinning
import TLSModel
import Testing

/// Every exception TrustKit 3.0.7 raises while loading a configuration (parse_configuration.m, TrustKit.m), one
/// test per refusal, and what it accepts although it looks wrong.
@Suite("TrustKit refuses at launch")
struct TrustKitLaunchCheckTests {
    typealias Check = TrustKitLaunchCheck
    typealias Key = TrustKitLaunchCheck.Key
    static let pinA = PinFixtures.spki("a")
    static let pinB = PinFixtures.spki("b")
    static let pins = [pinA, pinB]

    /// A configuration with one pinned domain.
    static func config(_ domain: String, _ entry: [String: Any]) -> [String: Any] {
        [Key.pinnedDomains: [domain: entry]]
    }

    /// The codes of the refusals.
    static func codes(_ configuration: Any, _ initializer: Check.Initializer = .sharedInstance) -> [Check.Code] {
        Check.refusals(configuration, initializer: initializer).map(\.code)
    }

    @Test("a well-formed configuration is loaded")
    func accepted() {
        let configuration: [String: Any] = [
            Key.swizzleNetworkDelegates: true,
            Key.pinnedDomains: [
                "example.com": [
                    Key.publicKeyHashes: Self.pins, Key.includeSubdomains: true, Key.enforcePinning: true,
                    Key.expirationDate: "2030-06-30", Key.reportURIs: ["https://reports.example.com/trustkit"],
                    "TSKDisableDefaultReportUri": true,
                ] as [String: Any],
                "legacy.example.com": [Key.excludeSubdomainFromParentPolicy: true],
                "api.example.co.uk": [Key.publicKeyHashes: [Self.pinA], Key.enforcePinning: false] as [String: Any],
            ] as [String: Any],
        ]
        #expect(Check.refusals(configuration).isEmpty, "\(Check.refusals(configuration).map(\.message))")
    }

    @Test("TrustKit refuses a configuration without pinned domains")
    func noPinnedDomains() throws {
        for configuration: [String: Any] in [
            [Key.swizzleNetworkDelegates: false], [Key.pinnedDomains: [String: Any]()], [Key.pinnedDomains: [Any]()],
        ] {
            let refusals = Check.refusals(configuration)
            #expect(refusals.map(\.code) == [.noPinnedDomains], "\(configuration)")
            #expect(refusals.first?.keyPath == [Key.pinnedDomains])
            #expect(refusals.first?.exception.contains("TrustKit was initialized with no pinned domains") == true)
        }
        // initWithConfiguration: parses nothing when the dictionary is empty: no exception, nothing pinned.
        #expect(Check.refusals([String: Any]()).isEmpty)
    }

    @Test(
        "TrustKit refuses a domain its registry does not know",
        arguments: [
            ("localhost", "single label"), ("api.example.internal", "'.internal' is not a top-level domain"),
            ("staging.atscheck.test", "'.test' is not a top-level domain"), ("10.0.0.1", "IP address"),
            ("2001:db8::1", "IP address"), ("bücher.de", "punycode"),
            ("api.example.music", "'.music' is not a top-level domain"), ("kawasaki.jp", "finds no public suffix"),
            ("example.com..", "two dots"),
        ])
    func invalidDomain(_ domain: String, _ reason: String) throws {
        let refusals = Check.refusals(Self.config(domain, [Key.publicKeyHashes: Self.pins]))
        let refusal = try #require(refusals.first)
        #expect(refusals.map(\.code) == [.invalidDomain])
        #expect(refusal.domain == domain && refusal.keyPath == [Key.pinnedDomains, domain])
        #expect(refusal.message.hasPrefix("\(domain): "))
        #expect(refusal.message.contains(reason), "\(refusal.message)")
        #expect(refusal.message.hasSuffix(": TrustKit raises at launch: the app would crash"))
        #expect(refusal.exception.hasSuffix("TrustKit was initialized with an invalid domain \(domain)"))
    }

    @Test(
        "names TrustKit's registry knows are accepted, a public suffix too when subdomains are not included",
        arguments: ["example.com", "example.com.", "com", "xn--bcher-kva.de", "www.example.afamilycompany", "web.app"])
    func validDomain(_ domain: String) {
        #expect(Self.codes(Self.config(domain, [Key.publicKeyHashes: Self.pins])).isEmpty, "\(domain)")
    }

    @Test(
        "TrustKit refuses TSKIncludeSubdomains on a public suffix",
        arguments: ["com", "co.uk", "appspot.com", "com.", "foo.kawasaki.jp"])
    func includeSubdomainsOnPublicSuffix(_ domain: String) throws {
        let configuration = Self.config(domain, [Key.publicKeyHashes: Self.pins, Key.includeSubdomains: true])
        let refusals = Check.refusals(configuration)
        let refusal = try #require(refusals.first)
        #expect(refusals.map(\.code) == [.includeSubdomainsOnPublicSuffix])
        #expect(refusal.keyPath == [Key.pinnedDomains, domain, Key.includeSubdomains])
        #expect(refusal.message.contains("TSKIncludeSubdomains is YES on a public suffix"), "\(refusal.message)")
        #expect(refusal.exception.hasSuffix("includeSubdomains for a domain suffix \(domain)"))
        // Without TSKIncludeSubdomains, or with it NO, TrustKit does not check.
        #expect(
            Self.codes(Self.config(domain, [Key.publicKeyHashes: Self.pins, Key.includeSubdomains: false])).isEmpty)
    }

    @Test("a suffix added to the list after TrustKit's snapshot may include subdomains")
    func includeSubdomainsOnLaterSuffix() {
        #expect(
            Self.codes(Self.config("web.app", [Key.publicKeyHashes: Self.pins, Key.includeSubdomains: true])).isEmpty)
    }

    @Test("TrustKit refuses an excluded subdomain's entry that holds other keys")
    func exclusionWithOtherKeys() throws {
        for extra: [String: Any] in [
            [Key.publicKeyHashes: Self.pins], [Key.includeSubdomains: false], ["TSKPublicKeyAlgorithms": ["x"]],
        ] {
            var entries: [String: Any] = ["example.com": [Key.publicKeyHashes: Self.pins, Key.includeSubdomains: true]]
            entries["legacy.example.com"] = extra.merging([Key.excludeSubdomainFromParentPolicy: true]) { a, _ in a }
            let refusals = Check.refusals([Key.pinnedDomains: entries])
            let refusal = try #require(refusals.first)
            #expect(refusals.map(\.code) == [.exclusionWithOtherKeys], "\(extra)")
            #expect(refusal.message.contains("may hold no other key, yet it has \(extra.keys.first!)"))
            #expect(refusal.exception.contains("detected additional configuration keys"))
        }
        // The exclusion key set to NO is an ordinary entry.
        let ordinary = Self.config(
            "api.example.com", [Key.excludeSubdomainFromParentPolicy: false, Key.publicKeyHashes: Self.pins])
        #expect(Self.codes(ordinary).isEmpty)
    }

    @Test("TrustKit refuses an excluded subdomain without a parent entry that includes subdomains")
    func exclusionWithoutParent() throws {
        let exclusion = [Key.excludeSubdomainFromParentPolicy: true]
        func codes(_ parent: String, includes: Bool) -> [Check.Code] {
            Self.codes([
                Key.pinnedDomains: [
                    parent: [Key.publicKeyHashes: Self.pins, Key.includeSubdomains: includes],
                    "legacy.example.com": exclusion,
                ] as [String: Any]
            ])
        }
        #expect(codes("example.com", includes: true).isEmpty)
        #expect(codes("example.com", includes: false) == [.exclusionWithoutParent])
        #expect(codes("other.com", includes: true) == [.exclusionWithoutParent])
        // isSubdomain compares the labels case-sensitively.
        #expect(codes("Example.com", includes: true) == [.exclusionWithoutParent])
        let refusal = try #require(Check.refusals(Self.config("legacy.example.com", exclusion)).first)
        #expect(refusal.code == .exclusionWithoutParent)
        #expect(refusal.message.hasPrefix("legacy.example.com: kSKExcludeSubdomainFromParentPolicy is set"))
        #expect(refusal.exception.contains("could not find a policy for a parent domain"))
    }

    @Test("TrustKit refuses a TSKReportUris entry NSURL cannot parse")
    func invalidReportURI() throws {
        for uri in ["", "https://exa mple.com/report", "http://[::1"] {
            let refusals = Check.refusals(
                Self.config(
                    "api.example.com",
                    [Key.publicKeyHashes: Self.pins, Key.reportURIs: ["https://ok.example.com", uri]]))
            let refusal = try #require(refusals.first, "\(uri)")
            #expect(refusals.map(\.code) == [.invalidReportURI])
            #expect(refusal.keyPath == [Key.pinnedDomains, "api.example.com", Key.reportURIs, "1"])
            #expect(refusal.exception.contains("invalid value for TSKReportUris for domain api.example.com"))
        }
    }

    @Test(
        "TrustKit refuses a pin that is not the Base64 of 32 bytes",
        arguments: [
            (String(repeating: "ab", count: 32), "hex digest"),
            ("ab-_" + String(PinFixtures.spki("a").dropFirst(4)), "base64url"),
            (" " + PinFixtures.spki("a"), "whitespace"), (Data(count: 20).base64EncodedString(), "20 bytes"),
            (String(PinFixtures.spki("a").dropLast()), "Base64"),
        ])
    func invalidPin(_ pin: String, _ reason: String) throws {
        let refusals = Check.refusals(
            Self.config("api.example.com", [Key.publicKeyHashes: [Self.pinA, Self.pinB, pin]]))
        let refusal = try #require(refusals.first)
        #expect(refusals.map(\.code) == [.invalidPin])
        #expect(refusal.keyPath == [Key.pinnedDomains, "api.example.com", Key.publicKeyHashes, "2"])
        #expect(refusal.message.contains("TSKPublicKeyHashes[2]"))
        #expect(refusal.message.contains(reason), "\(refusal.message)")
        #expect(refusal.exception.contains("invalid Pin \(pin) for domain api.example.com"))
    }

    @Test("TrustKit refuses fewer than two distinct pins while enforcing, and no pin at all")
    func missingBackupPin() throws {
        func codes(_ entry: [String: Any]) -> [Check.Code] { Self.codes(Self.config("api.example.com", entry)) }
        #expect(codes([Key.publicKeyHashes: [Self.pinA]]) == [.missingBackupPin])
        #expect(codes([Key.publicKeyHashes: [Self.pinA, Self.pinA]]) == [.missingBackupPin], "duplicates collapse")
        #expect(codes([Key.includeSubdomains: true]) == [.missingBackupPin], "no TSKPublicKeyHashes at all")
        #expect(codes([Key.publicKeyHashes: [Self.pinA], Key.enforcePinning: false]).isEmpty, "one is enough")
        #expect(codes([Key.publicKeyHashes: [Self.pinA], Key.enforcePinning: "NO"]).isEmpty, "read with -boolValue")
        #expect(codes([Key.publicKeyHashes: [String](), Key.enforcePinning: false]) == [.missingBackupPin])
        // A malformed pin is reported as such; the count treats it as if it were fixed.
        #expect(codes([Key.publicKeyHashes: [Self.pinA, "AAAA"]]) == [.invalidPin])
        let refusal = try #require(
            Check.refusals(Self.config("api.example.com", [Key.publicKeyHashes: [Self.pinA]])).first)
        #expect(refusal.keyPath == [Key.pinnedDomains, "api.example.com", Key.publicKeyHashes])
        #expect(
            refusal.message.contains(
                "TSKPublicKeyHashes has 1 distinct pin; TrustKit requires 2 while TSKEnforcePinning is YES"))
        #expect(refusal.exception.contains("less than 2 pins (ie. no backup pins) for domain api.example.com"))
    }

    @Test("TrustKit refuses TSKSwizzleNetworkDelegates outside the shared instance")
    func swizzleOutsideSharedInstance() throws {
        var configuration = Self.config("api.example.com", [Key.publicKeyHashes: Self.pins])
        configuration[Key.swizzleNetworkDelegates] = true
        #expect(Self.codes(configuration, .sharedInstance).isEmpty, "an Info.plist loads the shared instance")
        #expect(Self.codes(configuration, .instance) == [.swizzleOutsideSharedInstance])
        configuration[Key.swizzleNetworkDelegates] = false
        #expect(Self.codes(configuration, .instance).isEmpty)
    }

    @Test("TrustKit raises on a value of a type it sends a message it does not implement", arguments: wrongTypeCases)
    func wrongType(_ test: WrongTypeCase) throws {
        let refusals = Check.refusals(test.configuration())
        let refusal = try #require(refusals.first { $0.code == .wrongType })
        #expect(refusal.keyPath == test.keyPath)
        #expect(refusal.message.contains("-\(test.selector)"), "\(refusal.message)")
        #expect(refusal.exception.hasPrefix("NSInvalidArgumentException"))
        #expect(refusal.message.hasSuffix(TrustKitLaunchCheck.Refusal.consequence))
    }

    @Test("what TrustKit accepts although it looks wrong: string flags, unknown keys, an unparsable date")
    func acceptedOddities() {
        let entry: [String: Any] = [
            Key.publicKeyHashes: Self.pins, Key.includeSubdomains: "YES", Key.enforcePinning: "true",
            Key.expirationDate: "30/06/2030", "TSKPublicKeyAlgorithms": ["TSKAlgorithmRsa2048"], "Unknown": 1,
            "TSKDisableDefaultReportUri": "NO",
        ]
        #expect(Self.codes(Self.config("example.com", entry)).isEmpty)
        #expect(Self.codes([Key.pinnedDomains: ["example.com": entry], "TSKUnknownGlobal": [1]]).isEmpty)
    }

    @Test("every refusal is listed, in TrustKit's order, each naming its domain")
    func everyRefusal() {
        let configuration: [String: Any] = [
            Key.pinnedDomains: [
                "com": [Key.publicKeyHashes: [Self.pinA], Key.includeSubdomains: true] as [String: Any],
                "orphan.example.org": [Key.excludeSubdomainFromParentPolicy: true],
                "localhost": [Key.publicKeyHashes: Self.pins],
            ] as [String: Any]
        ]
        let refusals = Check.refusals(configuration)
        #expect(
            refusals.map(\.code) == [
                .includeSubdomainsOnPublicSuffix, .missingBackupPin, .invalidDomain, .exclusionWithoutParent,
            ])
        #expect(refusals.map(\.domain) == ["com", "com", "localhost", "orphan.example.org"])
    }

    @Test(
        "NSString -boolValue",
        arguments: [
            ("YES", true), ("yes", true), ("true", true), ("T", true), ("1", true), (" 1", true), ("+7", true),
            ("0010", true), ("NO", false), ("false", false), ("0", false), ("", false), ("-0", false), ("x1", false),
        ])
    func stringBoolValue(_ text: String, _ expected: Bool) {
        let configuration = Self.config(
            "api.example.com", [Key.publicKeyHashes: [Self.pinA], Key.enforcePinning: text])
        #expect(Self.codes(configuration) == (expected ? [.missingBackupPin] : []), "\(text.debugDescription)")
    }

    @Test("a pin set is checked as the TSKConfiguration it stands for")
    func pinSet() {
        let set = PinSet(domains: [
            "api.example.com": DomainPins(pins: [Self.pinA]),
            "legacy.example.com": DomainPins(pins: [Self.pinA], excludeSubdomainFromParentPolicy: true),
        ])
        let codes = Set(Check.refusals(Check.configuration(of: set)).map(\.code))
        #expect(codes == [.exclusionWithOtherKeys, .missingBackupPin, .exclusionWithoutParent])
        let findings = PinSetValidation.findings(set, file: "Pins/api.json")
        #expect(findings.allSatisfy { $0.rule == RuleID.Pins.trustKitConfigRejected && $0.file == "Pins/api.json" })
        #expect(findings.contains { $0.keyPath == "domains.api.example.com.pins" })
    }
}

/// A configuration with a value of the wrong type, where the refusal points, and the message TrustKit sends.
struct WrongTypeCase: Sendable, CustomTestStringConvertible {
    let label: String
    let keyPath: [String]
    let selector: String
    let configuration: @Sendable () -> Any
    var testDescription: String { label }
}

private typealias Key = TrustKitLaunchCheck.Key
private let pins = [PinFixtures.spki("a"), PinFixtures.spki("b")]
private let domain = "api.example.com"

/// One domain whose entry is `entry`, plus `global` keys.
private func configuration(_ entry: Any, _ global: [String: Any] = [:]) -> [String: Any] {
    global.merging([Key.pinnedDomains: [domain: entry]]) { _, b in b }
}

let wrongTypeCases: [WrongTypeCase] = [
    WrongTypeCase(label: "TSKConfiguration is a string", keyPath: [], selector: "count") { "just text" },
    WrongTypeCase(
        label: "TSKPinnedDomains is an array", keyPath: [Key.pinnedDomains], selector: "objectForKeyedSubscript:"
    ) {
        [Key.pinnedDomains: [domain]]
    },
    WrongTypeCase(label: "TSKPinnedDomains is a string", keyPath: [Key.pinnedDomains], selector: "count") {
        [Key.pinnedDomains: domain]
    },
    WrongTypeCase(
        label: "an entry is an array", keyPath: [Key.pinnedDomains, domain], selector: "objectForKeyedSubscript:"
    ) { configuration(pins) },
    WrongTypeCase(
        label: "TSKIncludeSubdomains is an array", keyPath: [Key.pinnedDomains, domain, Key.includeSubdomains],
        selector: "boolValue"
    ) { configuration([Key.publicKeyHashes: pins, Key.includeSubdomains: [true]]) },
    WrongTypeCase(
        label: "TSKEnforcePinning is a date", keyPath: [Key.pinnedDomains, domain, Key.enforcePinning],
        selector: "boolValue"
    ) { configuration([Key.publicKeyHashes: pins, Key.enforcePinning: Date()]) },
    WrongTypeCase(
        label: "the exclusion flag is data",
        keyPath: [Key.pinnedDomains, domain, Key.excludeSubdomainFromParentPolicy], selector: "boolValue"
    ) { configuration([Key.excludeSubdomainFromParentPolicy: Data([1]), Key.publicKeyHashes: pins]) },
    WrongTypeCase(
        label: "TSKExpirationDate is a plist date", keyPath: [Key.pinnedDomains, domain, Key.expirationDate],
        selector: "length"
    ) { configuration([Key.publicKeyHashes: pins, Key.expirationDate: Date()]) },
    WrongTypeCase(
        label: "TSKPublicKeyHashes is a string", keyPath: [Key.pinnedDomains, domain, Key.publicKeyHashes],
        selector: "countByEnumeratingWithState:objects:count:"
    ) { configuration([Key.publicKeyHashes: pins[0], Key.enforcePinning: false]) },
    WrongTypeCase(
        label: "a pin is a number", keyPath: [Key.pinnedDomains, domain, Key.publicKeyHashes, "2"], selector: "length"
    ) { configuration([Key.publicKeyHashes: pins + [42] as [Any]]) },
    WrongTypeCase(
        label: "TSKReportUris is a string", keyPath: [Key.pinnedDomains, domain, Key.reportURIs],
        selector: "countByEnumeratingWithState:objects:count:"
    ) { configuration([Key.publicKeyHashes: pins, Key.reportURIs: "https://reports.example.com"]) },
    WrongTypeCase(
        label: "TSKSwizzleNetworkDelegates is an array", keyPath: [Key.swizzleNetworkDelegates], selector: "boolValue"
    ) { configuration([Key.publicKeyHashes: pins], [Key.swizzleNetworkDelegates: [1]]) },
]
