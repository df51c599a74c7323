import Pinning
import TLSModel
import Testing

/// Issue 21, step 2: one protocol and one registry for the pinning libraries; nothing switches over them.
@Suite("Pinning library registry")
struct PinningLibraryRegistryTests {
    @Test("ids, option keys and flags are unique, and every library is found by its id")
    func unique() {
        let ids = PinningLibraries.all.map(\.id)
        #expect(Set(ids).count == ids.count)
        for library in PinningLibraries.all {
            #expect(PinningLibraries.named(library.id)?.name == library.name)
        }
        let options = PinPolicyOptions.allOptions
        #expect(Set(options.map(\.key)).count == options.count)
        #expect(Set(options.map(\.flag)).count == options.count)
        #expect(PinningLibraries.named(PinLibrary(rawValue: "okhttp")) == nil)
    }

    @Test("each library's rules are catalogue entries, and a pins.<library>.* rule belongs to that library only")
    func rulesAreOwned() {
        for library in PinningLibraries.all {
            for rule in library.rules + library.materialRules {
                #expect(RuleCatalogue([.pins, .app]).descriptor(for: rule) != nil, "\(library.id): \(rule)")
            }
        }
        for descriptor in RuleRegistry.pins.entries where descriptor.id.rawValue.hasPrefix("pins.trustkit.") {
            let owners = PinningLibraries.all.filter { $0.rules.contains(descriptor.id) }.map(\.id)
            #expect(owners == [.trustkit], "\(descriptor.id)")
        }
        for descriptor in RuleRegistry.pins.entries where descriptor.id.rawValue.hasPrefix("pins.alamofire.") {
            let owners = PinningLibraries.all.filter { $0.rules.contains(descriptor.id) }.map(\.id)
            #expect(owners == [.alamofire], "\(descriptor.id)")
        }
    }

    @Test("material findings concern the libraries that claim them, and every library otherwise")
    func concerns() {
        #expect(PinningLibraries.concerns(RuleID.Pins.pemInCer, .afnetworking))
        #expect(PinningLibraries.concerns(RuleID.Pins.pemInCer, .alamofire))
        #expect(!PinningLibraries.concerns(RuleID.Pins.pemInCer, .trustkit))
        #expect(!PinningLibraries.concerns(RuleID.Pins.trustKitConfigRejected, .afnetworking))
        #expect(PinningLibraries.concerns(RuleID.Pins.pinMalformed, .nspinneddomains))
        #expect(!PinningLibraries.concerns(RuleID.Pins.pinMalformed, .alamofire))
        #expect(PinningLibraries.concerns(RuleID.Pins.noneMatch, .alamofire))
    }

    @Test("options from an endpoint list: parsed, refused with the key's name, and built into the library's policy")
    func parse() throws {
        let af = try PinPolicyOptions.parse(["mode": "Public-Key", "allowInvalidCertificates": "yes"]).get()
        #expect(af.library == .afnetworking)
        #expect(af.policy == .afnetworking(AFSecurityPolicyOptions(mode: .publicKey, allowInvalidCertificates: true)))
        #expect(af.policy.release == .afnetworking(AFSecurityPolicyOptions(mode: .publicKey)))
        let alamofire = try PinPolicyOptions.parse(["library": "alamofire", "evaluator": "public-keys"]).get()
        #expect(alamofire.policy == .alamofire(.publicKeys()))
        #expect(alamofire.policy.release == nil)
        func problem(_ given: [String: String]) -> String? {
            if case .failure(let p) = PinPolicyOptions.parse(given) { return p.message }
            return nil
        }
        #expect(
            problem(["library": "okhttp"])
                == "library 'okhttp' is not one of afnetworking|trustkit|alamofire|nspinneddomains")
        #expect(problem(["mode": "pinned"]) == "mode 'pinned' is not one of none|certificate|public-key")
        #expect(problem(["afVersion": "four"]) == "afVersion 'four' is not a number (2, 3 or 4)")
        #expect(problem(["afVersion": "5"]) == "afVersion must be 2, 3 or 4")
        #expect(problem(["validateHost": "maybe"]) == "validateHost 'maybe' is not true or false")
        #expect(
            problem(["library": "trustkit", "evaluator": "disabled"])
                == "evaluator, acceptSelfSignedCertificates, performDefaultValidation and validateHost are Alamofire options: add 'library: alamofire'"
        )
        #expect(
            problem(["library": "alamofire", "acceptSelfSignedCertificates": "true", "evaluator": "public-keys"])
                == "acceptSelfSignedCertificates applies to 'evaluator: pinned-certificates' only")
        // A boolean at its default names nothing: `validatesDomainName: true` is harmless for TrustKit.
        #expect(problem(["library": "trustkit", "validatesDomainName": "true"]) == nil)
    }

    @Test("the libraries that need pin material say so; the ones that load bundle files have a signature and modes")
    func materialAndBundles() {
        let empty = AppPins()
        #expect(PinningLibraries.named(.trustkit)?.missingMaterial(empty) != nil)
        #expect(PinningLibraries.named(.nspinneddomains)?.missingMaterial(empty) != nil)
        #expect(PinningLibraries.named(.afnetworking)?.missingMaterial(empty) == nil)
        let loaders = PinningLibraries.all.filter { $0.bundledModes != nil }.map(\.id)
        #expect(loaders == [.afnetworking, .alamofire])
        for library in PinningLibraries.all where library.bundledModes != nil {
            #expect(library.bundleSignature != nil)
            let modes = library.bundledModes!
            let spec = library.options.first { $0.key == modes.key }
            guard case .choice(let words) = spec?.kind else {
                Issue.record("\(library.id): the mode option is not a choice")
                continue
            }
            #expect(modes.plausible.allSatisfy(words.contains))
        }
        #expect(PinningLibraries.named(.nspinneddomains)?.bundleSignature == nil)
    }
}
