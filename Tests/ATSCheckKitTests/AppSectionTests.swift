import ATSCheckKit
import AppBundle
import AppBundleFixtures
import Foundation
import Reporting
import TLSModel
import TLSTestSupport
import Testing

/// The facade fills the report document's app section from what it read: the values the text and the JSON of
/// `atscheck app` show.
@Suite("App section from the offline result")
struct AppSectionTests {
    @Test("the bundle's facts as the section: identity, libraries, certificates, harvested endpoints")
    func facts() throws {
        let folder = URL(fileURLWithPath: TestScratch.file("atscheck-app-section"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.acme.section", "CFBundleShortVersionString": "3.1", "CFBundleExecutable": "Sec",
            "MinimumOSVersion": "15.0",
        ]
        let plist: [String: Any] = [
            "CFBundleIdentifier": "org.cocoapods.AFNetworking", "CFBundleShortVersionString": "4.0.1",
        ]
        let framework = MachOWriter.executable(sections: [.cstrings(["AFSecurityPolicy"])])
        let files: [String: Data] = [
            "Info.plist": BundleTree.xmlPlist(info),
            "Sec": Data(MachOWriter.executable(sections: [.cstrings(["https://api.section.test/v1/"])])),
            "root.cer": TestPKI.shared.root.der,
            "broken.cer": Data("not a certificate".utf8),
            "Frameworks/AFNetworking.framework/Info.plist": BundleTree.binaryPlist(plist),
            "Frameworks/AFNetworking.framework/AFNetworking": Data(framework),
        ]
        let path = folder.appendingPathComponent("Sec.ipa")
        try BundleTree(files: files).prefixed("Payload/Sec.app").zip(to: path)

        let result = try AppOfflineAudit.run(path: path.path)
        let facts = result.section.facts
        #expect(result.section.live == nil)
        #expect(facts.input == path.path)
        #expect(facts.container == "ipa")
        #expect(facts.bundleIdentifier == "com.acme.section")
        #expect(facts.version == "3.1")
        #expect(facts.minimumOS.key == "MinimumOSVersion" && facts.minimumOS.value == "15.0")
        #expect(facts.eras == result.eras.map(\.description))
        let library = try #require(facts.libraries.first)
        #expect(library.name == "AFNetworking" && library.version == "4.0.1" && library.linkage == "framework")
        #expect(library.path?.hasSuffix("AFNetworking.framework") == true && library.marker == nil)
        let root = try #require(facts.certificates.first { $0.file.hasSuffix("root.cer") })
        #expect(root.subject == result.certificates.first { $0.file.hasSuffix("root.cer") }?.facts?.subject)
        #expect(root.subject != nil && root.spkiSHA256 != nil && root.notAfter != nil)
        let broken = try #require(facts.certificates.first { $0.file.hasSuffix("broken.cer") })
        #expect(broken.subject == nil && broken.spkiSHA256 == nil)
        #expect(facts.harvestedEndpoints.map(\.target) == result.endpoints.map(\.target))
        #expect(facts.harvestedEndpoints.first?.sources == result.endpoints.first?.sources.map(\.description))
    }

    @Test("the text names as many places per endpoint as the --emit-endpoints list")
    func sourcesShown() {
        #expect(AppText.sourcesShown == EndpointListWriter.maxSourcesShown)
    }
}
