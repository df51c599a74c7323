import AppBundle
import AppBundleFixtures
import Foundation
import Testing

@Suite("Harvesting endpoints")
struct HarvestTests {
    @Test("the demo app: exactly its endpoints, no namespaces, Apple or documentation hosts, file names or identifiers")
    func demoApp() throws {
        let folder = try TemporaryFolder()
        let bundle = try Fixtures.openIPA(DemoApp.tree(pinDER: Fixtures.fakeDER), in: folder)
        let endpoints = EndpointHarvester.harvest(bundle).endpoints
        #expect(Set(endpoints.map(\.target)) == DemoApp.expectedTargets)
        #expect(endpoints.count == DemoApp.expectedTargets.count)
        let js = try #require(endpoints.first { $0.host == "tls13-only.demo.atscheck.test" })
        #expect(js.sources.map(\.description) == [folder.path("A.ipa") + "/Payload/A.app/main.jsbundle:5"])
        // The exception domain keys of the Info.plist join the URLs of the executable.
        let cdn = try #require(endpoints.first { $0.host == "cdn.demo.atscheck.test" })
        #expect(
            cdn.sources.contains {
                $0.file.hasSuffix("/Payload/A.app/Info.plist")
                    && $0.keyPath == "NSAppTransportSecurity.NSExceptionDomains.cdn.demo.atscheck.test"
            })
        #expect(cdn.sources.contains { $0.file.hasSuffix("/Payload/A.app/Demo") && $0.offset != nil && $0.line == nil })
    }

    @Test("a fixture Mach-O: the exact set from its string sections, nothing from outside them")
    func machO() {
        let strings = [
            "https://api.acme.com/v2/items?x=1", "HTTPS://Upper.Acme.com:8443/path", "http://plain.acme.net",
            "cdn.acme.co.uk", "telemetry.acme.io:4443",
            "xmlns=\"http://ns.acme.com/not-an-endpoint\"", "http://schemas.xmlsoap.org/soap/envelope/",
            "http://purl.org/dc/elements/1.1/", "https://www.apple.com/appleca/", "http://crl.apple.com/root.crl",
            "https://docs.example.org/x", "http://localhost:8080/debug", "https://broken.invalid/", "https://%@/api",
            "https://${host}/x", "Info.plist", "main.jsbundle", "Demo.app", "socket.io", "moment.js",
            "com.acme.sdk.net",
            "user@mail.acme.com", "1.2.3.4", "NSURLSession.shared", "/usr/lib/libz.dylib",
        ]
        let trailer = Array("https://in-the-signature.acme.com\0".utf8)
        let bytes = MachOWriter.executable(
            sections: [
                .cstrings(strings),
                MachOWriter.Section(segment: "__TEXT", name: "__text", bytes: Array("https://in-code.acme.com\0".utf8)),
            ], trailer: trailer)
        let found = EndpointHarvester.harvest(bytes: bytes, file: "App", isExecutable: true)
        #expect(
            Set(found.map(\.target)) == [
                "https://api.acme.com", "https://upper.acme.com:8443", "http://plain.acme.net", "cdn.acme.co.uk",
                "telemetry.acme.io:4443",
            ])
        #expect(found.allSatisfy { $0.sources.allSatisfy { $0.offset != nil && $0.line == nil } })
        // The same bytes inside a universal file fall back to scanning everything, the code and trailer too.
        let fat = EndpointHarvester.harvest(bytes: MachOWriter.fat([bytes]), file: "App", isExecutable: true)
        #expect(Set(fat.map(\.host)).isSuperset(of: ["in-code.acme.com", "in-the-signature.acme.com", "api.acme.com"]))
    }

    @Test("the filter is a value: .test names are kept by default and dropped by the strict filter")
    func filter() {
        let bytes = Array("fetch('https://api.staging.test/x'); fetch('https://api.example.com')".utf8)
        let kept = EndpointHarvester.harvest(bytes: bytes, file: "a.js", isExecutable: false)
        #expect(kept.map(\.target) == ["https://api.staging.test"])
        #expect(kept.first?.sources.first?.line == 1)
        #expect(EndpointHarvester.harvest(bytes: bytes, file: "a.js", isExecutable: false, filter: .strict).isEmpty)
        var custom = HarvestFilter.default
        custom.excludedDomains.append("staging.test")
        #expect(EndpointHarvester.harvest(bytes: bytes, file: "a.js", isExecutable: false, filter: custom).isEmpty)
    }

    @Test("the endpoint list is the audit text format, with # from comments")
    func endpointList() throws {
        let folder = try TemporaryFolder()
        let bundle = try Fixtures.openIPA(DemoApp.tree(pinDER: Fixtures.fakeDER), in: folder)
        let text = EndpointListWriter.text(EndpointHarvester.harvest(bundle).endpoints, input: "Demo.ipa")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first == "# Endpoints harvested by `atscheck app` from Demo.ipa.")
        let targets = lines.filter { !$0.hasPrefix("#") && !$0.isEmpty }
        #expect(Set(targets) == DemoApp.expectedTargets)
        let index = try #require(lines.firstIndex(of: "https://tls13-only.demo.atscheck.test"))
        #expect(lines[index - 1] == "# from \(folder.path("A.ipa"))/Payload/A.app/main.jsbundle:5")
        #expect(text.hasSuffix("\n"))
    }
}
