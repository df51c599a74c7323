import Pinning
import TLSModel
import Testing

/// Issue 33: the library-specific decisions `app` and `cert` make come from the libraries' hooks, and a library
/// without the hook decides nothing (never another library's behaviour).
@Suite("Pinning library hooks: linked copies, unlinked configurations, configured material")
struct LibraryHookTests {
    private func copy(framework: Bool, major: Int?, main: Int, own: Int) -> LinkedCopy {
        LinkedCopy(
            linkedAsFramework: framework, majorVersion: major,
            files: { $0 == .afNetworkingMainBundle ? main : $0 == .afNetworkingFrameworkBundle ? own : 0 },
            infoPlist: [:])
    }

    @Test("AFNetworking 2.x/3.x as a framework ignores the app bundle's .cer files; 4.x and static copies do not")
    func afNetworkingFrameworkBundle() {
        let library = AFNetworkingLibrary()
        let found = library.linkedFindings(
            copy(framework: true, major: 3, main: 2, own: 0), label: "AFNetworking 3.2.1", file: "F/AF.framework")
        #expect(found.map(\.rule) == [RuleID.Pins.frameworkBundle])
        #expect(found.first?.severity == .error)
        #expect(found.first?.file == "F/AF.framework")
        #expect(
            found.first?.message
                == "AFNetworking 3.2.1 as a dynamic framework loads pins from its own bundle: the 2 .cer files in the "
                + "app bundle are never used; its own bundle has none, so policyWithPinningMode: pins nothing and "
                + "rejects every connection in a pinned mode")
        let own = library.linkedFindings(copy(framework: true, major: 2, main: 1, own: 3), label: "AF", file: nil)
        #expect(
            own.first?.message.hasSuffix(
                "the 1 .cer file in the app bundle is never used; it pins the 3 .cer files in its own bundle instead")
                == true)
        #expect(library.linkedFindings(copy(framework: true, major: 4, main: 2, own: 0), label: "", file: nil).isEmpty)
        #expect(library.linkedFindings(copy(framework: false, major: 3, main: 2, own: 0), label: "", file: nil).isEmpty)
        #expect(library.linkedFindings(copy(framework: true, major: 3, main: 0, own: 1), label: "", file: nil).isEmpty)
    }

    @Test("TSKConfiguration without TrustKit is read by nothing; the other libraries find nothing unlinked")
    func trustKitNotLinked() {
        let plist: [String: Any] = ["TSKConfiguration": ["TSKPinnedDomains": [:] as [String: Any]]]
        let found = TrustKitLibrary().unlinkedFindings(infoPlist: plist) { path in ("Info.plist", path.count * 10) }
        #expect(found.map(\.rule) == [RuleID.App.trustKitNotLinked])
        #expect(found.first?.file == "Info.plist")
        #expect(found.first?.line == 10)
        #expect(found.first?.keyPath == "TSKConfiguration")
        #expect(TrustKitLibrary().unlinkedFindings(infoPlist: [:]) { _ in (nil, nil) }.isEmpty)
        for library in PinningLibraries.all where library.id != .trustkit {
            #expect(library.unlinkedFindings(infoPlist: plist) { _ in (nil, nil) }.isEmpty, "\(library.id)")
            #expect(
                library.linkedFindings(copy(framework: true, major: 3, main: 2, own: 0), label: "", file: nil)
                    .isEmpty || library.id == .afnetworking, "\(library.id)")
        }
    }

    @Test(
        "the material configures AFNetworking and Alamofire by certificates, TrustKit by a pin set, NSPinnedDomains by its own"
    )
    func configured() {
        func ids(_ pins: AppPins) -> [PinLibrary] {
            PinningLibraries.all.filter { $0.isConfigured(by: pins) }.map(\.id)
        }
        #expect(ids(AppPins()) == [])
        #expect(ids(AppPins(certificates: [PinFixtures.leaf])) == [.afnetworking, .alamofire])
        #expect(ids(AppPins(pinSet: PinSet(domains: [:]))) == [.trustkit])
        #expect(ids(AppPins(pinnedDomains: PinnedDomainsConfiguration(domains: [:]))) == [.nspinneddomains])
    }

    @Test("app checks a host against TSKConfiguration's entry that pins it; no other library reads an Info.plist entry")
    func infoPlistEntry() {
        let pins = AppPins(
            pinSet: PinSet(domains: [
                "example.com": DomainPins(pins: ["a", "b"], includeSubdomains: true),
                "off.example.com": DomainPins(pins: ["a", "b"], excludeSubdomainFromParentPolicy: true),
            ]))
        let entry = TrustKitLibrary().infoPlistEntry(pinning: "api.example.com", in: pins, now: PinFixtures.now)
        #expect(
            entry
                == InfoPlistPinEntry(
                    origin: .trustKit, note: "TSKConfiguration entry 'example.com'",
                    keyPath: "TSKConfiguration.TSKPinnedDomains.example.com",
                    subject: "TrustKit (TSKConfiguration 'example.com')"))
        #expect(TrustKitLibrary().infoPlistEntry(pinning: "off.example.com", in: pins, now: PinFixtures.now) == nil)
        #expect(TrustKitLibrary().infoPlistEntry(pinning: "other.org", in: pins, now: PinFixtures.now) == nil)
        #expect(TrustKitLibrary().infoPlistEntry(pinning: "example.com", in: AppPins(), now: PinFixtures.now) == nil)
        for library in PinningLibraries.all where library.id != .trustkit {
            #expect(library.infoPlistEntry(pinning: "example.com", in: pins, now: PinFixtures.now) == nil)
        }
    }
}
