import ATSPolicy
import AppBundle
import AppBundleFixtures
import Foundation
import TLSModel
import Testing

@Suite("Reading app bundles of each shape")
struct BundleShapeTests {
    @Test("the demo app reads the same as an .ipa, an .app folder and an .xcarchive")
    func shapes() throws {
        let folder = try TemporaryFolder()
        let tree = DemoApp.tree(pinDER: Fixtures.fakeDER)
        try tree.prefixed("Payload/Demo.app").zip(to: folder.url.appendingPathComponent("Demo.ipa"))
        try tree.write(to: folder.url.appendingPathComponent("Demo.app"))
        try tree.prefixed("Products/Applications/Demo.app").write(
            to: folder.url.appendingPathComponent("Demo.xcarchive"))
        let cases: [(String, AppBundleContents.Container, String)] = [
            ("Demo.ipa", .ipa, "Payload/Demo.app"), ("Demo.app", .app, ""),
            ("Demo.xcarchive", .xcarchive, "Products/Applications/Demo.app"),
        ]
        for (name, container, root) in cases {
            let bundle = try AppBundle.open(path: folder.path(name))
            #expect(bundle.container == container)
            #expect(bundle.layout.appRoot == root)
            #expect(bundle.info.bundleIdentifier == "com.atscheck.demo")
            #expect(bundle.info.version == "1.4.0")
            #expect(bundle.info.build == "42")
            #expect(bundle.infoPlist.format == .binary)
            #expect(bundle.infoPlist.file == folder.path(name) + "/" + BundlePathJoin.join(root, "Info.plist"))
            #expect(
                bundle.libraries == [
                    LinkedLibrary(
                        name: .afnetworking, version: "4.0.1",
                        linkage: .framework(path: BundlePathJoin.join(root, "Frameworks/AFNetworking.framework")))
                ])
            #expect(bundle.certificates.map(\.lookups) == [[.afNetworkingMainBundle, .alamofire]])
            #expect(bundle.certificates.first?.der == [UInt8](Fixtures.fakeDER))
            #expect(bundle.eras.first == AppleOSVersion(15))
            #expect(bundle.eras.last == AppleOSVersion.newest)
            #expect(bundle.executables.first == BundlePathJoin.join(root, "Demo"))
            let linked = bundle.findings.filter { $0.rule == RuleID.App.libraryLinked }
            #expect(
                linked.map(\.message) == [
                    "AFNetworking 4.0.1 is linked as a dynamic framework: policyWithPinningMode: loads the 1 *.cer file at the top level of the app bundle"
                ])
            #expect(!bundle.findings.contains { $0.severity == .error })
        }
    }

    @Test("AFNetworking 3.x as a framework: the app bundle's .cer files are never used (docs/pinning-rules.md §1.1)")
    func afNetworking3() throws {
        let folder = try TemporaryFolder()
        let extra = Fixtures.framework("AFNetworking", version: "3.2.1")
            .merging(["a.cer": Fixtures.fakeDER, "b.cer": Fixtures.fakeDER]) { a, _ in a }
        let bundle = try Fixtures.openIPA(Fixtures.app(extra: extra), in: folder)
        let finding = try #require(bundle.findings.first { $0.rule == RuleID.Pins.frameworkBundle })
        #expect(finding.severity == .error)
        #expect(
            finding.message.hasPrefix(
                "AFNetworking 3.2.1 as a dynamic framework loads pins from its own bundle: the 2 .cer files in the app bundle are never used"
            ))
        #expect(finding.file == folder.path("A.ipa") + "/Payload/A.app/Frameworks/AFNetworking.framework")
        // Version 4 reads the main bundle: no such finding.
        let four = Fixtures.framework("AFNetworking", version: "4.0.1").merging(["a.cer": Fixtures.fakeDER]) { a, _ in a
        }
        let modern = try Fixtures.openIPA(Fixtures.app(extra: four), in: try TemporaryFolder())
        #expect(!modern.findings.contains { $0.rule == RuleID.Pins.frameworkBundle })
    }

    @Test("AFNetworking linked statically is found by class name; every version then reads the main bundle")
    func staticLinking() throws {
        let tree = Fixtures.app(
            strings: ["AFSecurityPolicy", "https://api.acme.com"], extra: ["p.cer": Fixtures.fakeDER])
        let bundle = try Fixtures.openIPA(tree, in: try TemporaryFolder())
        #expect(
            bundle.libraries == [
                LinkedLibrary(name: .afnetworking, version: nil, linkage: .staticallyLinked(marker: "AFSecurityPolicy"))
            ])
        #expect(!bundle.findings.contains { $0.rule == RuleID.Pins.frameworkBundle })
    }

    @Test("certificates in a subfolder or with an extension AFNetworking skips are reported as not loaded")
    func notLoaded() throws {
        let extra = Fixtures.framework("AFNetworking", version: "4.0.1")
            .merging(["certs/api.cer": Fixtures.fakeDER, "api.crt": Fixtures.fakeDER, "top.cer": Fixtures.fakeDER]) {
                a, _ in a
            }
        let bundle = try Fixtures.openIPA(Fixtures.app(extra: extra), in: try TemporaryFolder())
        let notLoaded = bundle.findings.filter { $0.rule == RuleID.App.pinsNotLoaded }.compactMap(\.file)
        #expect(
            notLoaded.map { $0.split(separator: "/").suffix(2).joined(separator: "/") }.sorted() == [
                "A.app/api.crt", "certs/api.cer",
            ])
        // With Alamofire too, `.crt` at the top level is read.
        let both = extra.merging(Fixtures.framework("Alamofire", version: "5.9.1")) { a, _ in a }
        let withAlamofire = try Fixtures.openIPA(Fixtures.app(extra: both), in: try TemporaryFolder())
        #expect(withAlamofire.findings.filter { $0.rule == RuleID.App.pinsNotLoaded }.count == 1)
    }

    @Test("PEM in a .cer is pins.material.pem-in-cer; other junk is app.pins.unreadable")
    func pemInCer() throws {
        let extra = Fixtures.framework("AFNetworking", version: "4.0.1")
            .merging(["pem.cer": Fixtures.pem, "junk.cer": Data("hello".utf8)]) { a, _ in a }
        let bundle = try Fixtures.openIPA(Fixtures.app(extra: extra), in: try TemporaryFolder())
        let pem = try #require(bundle.findings.first { $0.rule == RuleID.Pins.pemInCer })
        #expect(pem.severity == .error)
        #expect(pem.file?.hasSuffix("Payload/A.app/pem.cer") == true)
        #expect(bundle.certificates.first { $0.path.hasSuffix("pem.cer") }?.encoding == .pem)
        #expect(
            bundle.certificates.first { $0.path.hasSuffix("pem.cer") }?.der == [
                0x30, 0x82, 0x01, 0x0A, 0x02, 0x82, 0x01, 0x01, 0x00,
            ])
        #expect(
            bundle.findings.contains { $0.rule == RuleID.App.pinsUnreadable && $0.file?.hasSuffix("junk.cer") == true })
    }

    @Test("TrustKit in the plist: the raw configuration is exposed; without TrustKit linked it is flagged")
    func trustKit() throws {
        let configuration: [String: Any] = [
            "TSKPinnedDomains": [
                "api.acme.com": ["TSKPublicKeyHashes": ["AAAA", "BBBB"], "TSKIncludeSubdomains": true]
            ]
        ]
        let tree = Fixtures.app(info: ["TSKConfiguration": configuration], xml: true)
        let unlinked = try Fixtures.openIPA(tree, in: try TemporaryFolder())
        #expect(
            (unlinked.trustKitConfiguration?["TSKPinnedDomains"] as? [String: Any])?.keys.sorted() == ["api.acme.com"])
        let stale = try #require(unlinked.findings.first { $0.rule == RuleID.App.trustKitNotLinked })
        #expect(stale.line != nil, "an XML Info.plist gives the line of TSKConfiguration")
        var linked = tree
        linked.files.merge(Fixtures.framework("TrustKit", version: "3.0.4")) { a, _ in a }
        let bundle = try Fixtures.openIPA(linked, in: try TemporaryFolder())
        #expect(!bundle.findings.contains { $0.rule == RuleID.App.trustKitNotLinked })
        #expect(
            bundle.findings.contains {
                $0.rule == RuleID.App.libraryLinked && $0.message.contains("TrustKit 3.0.4")
                    && $0.message.contains("1 pinned domain")
            })
    }

    @Test("NSPinnedDomains is handed on raw; the ATS dictionary is linted as `plist` lints it")
    func pinnedDomainsAndLint() throws {
        let ats: [String: Any] = [
            "NSAllowsArbitraryLoads": true,
            "NSPinnedDomains": [
                "api.acme.com": [
                    "NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": "r/mIkG3eEpVdm+u/ko/cwxzOMo1bk4TyHIlByibiA5E="]]
                ]
            ],
        ]
        let bundle = try Fixtures.openIPA(
            Fixtures.app(info: ["NSAppTransportSecurity": ats], xml: true), in: try TemporaryFolder())
        #expect(bundle.pinnedDomains?.keys.sorted() == ["api.acme.com"])
        let expected = PlistLinter.lint(bundle.infoPlist, options: PlistLinter.Options(deploymentTarget: "15.0"))
        #expect(bundle.lint == expected)
        #expect(
            bundle.lint.contains { $0.keyPath == "NSAppTransportSecurity.NSAllowsArbitraryLoads" && $0.line != nil })
        #expect(!bundle.findings.contains { $0.rule == RuleID.App.noATSDictionary })
    }

    @Test("no ATS dictionary is a note; a binary and an XML Info.plist read the same")
    func noATSAndFormats() throws {
        let binary = try Fixtures.openIPA(Fixtures.app(), in: try TemporaryFolder())
        let xml = try Fixtures.openIPA(Fixtures.app(xml: true), in: try TemporaryFolder())
        #expect(binary.infoPlist.format == .binary)
        #expect(xml.infoPlist.format == .xml)
        #expect(binary.info == xml.info)
        for bundle in [binary, xml] {
            let note = try #require(bundle.findings.first { $0.rule == RuleID.App.noATSDictionary })
            #expect(note.severity == .note)
        }
    }

    @Test("a macOS app (Contents/) reads LSMinimumSystemVersion and its frameworks through Versions/Current links")
    func macOSLayout() throws {
        let info = BundleTree.binaryPlist([
            "CFBundleIdentifier": "com.acme.mac", "CFBundleExecutable": "Mac", "LSMinimumSystemVersion": "12.3",
        ])
        let frameworkInfo = BundleTree.binaryPlist([
            "CFBundleShortVersionString": "5.8.0", "CFBundleExecutable": "Alamofire",
        ])
        let tree = BundleTree(
            files: [
                "Contents/Info.plist": info,
                "Contents/MacOS/Mac": Data(MachOWriter.executable(sections: [.cstrings(["https://mac.acme.com"])])),
                "Contents/Resources/pin.der": Fixtures.fakeDER,
                "Contents/Frameworks/Alamofire.framework/Versions/A/Resources/Info.plist": frameworkInfo,
                "Contents/Frameworks/Alamofire.framework/Versions/A/Alamofire": Data(
                    MachOWriter.executable(sections: [])),
            ],
            symlinks: [
                "Contents/Frameworks/Alamofire.framework/Versions/Current": "A",
                "Contents/Frameworks/Alamofire.framework/Resources": "Versions/Current/Resources",
                "Contents/Frameworks/Alamofire.framework/Alamofire": "Versions/Current/Alamofire",
            ])
        let folder = try TemporaryFolder()
        try tree.write(to: folder.url.appendingPathComponent("Mac.app"))
        let bundle = try AppBundle.open(path: folder.path("Mac.app"))
        #expect(bundle.layout.style == .contents)
        #expect(bundle.info.minimumOS.platform == .macOS)
        #expect(bundle.info.minimumOS.iOSEquivalent == AppleOSVersion(15, 4))
        #expect(bundle.eras.first == AppleOSVersion(15, 4))
        #expect(bundle.libraries.map(\.version) == ["5.8.0"])
        #expect(bundle.certificates.map(\.lookups) == [[.alamofire]])
        #expect(
            bundle.executables == [
                "Contents/MacOS/Mac", "Contents/Frameworks/Alamofire.framework/Versions/A/Alamofire",
            ])
    }

    @Test("minimum OS: eras from the era the minimum falls in; missing is a warning, pre-ATS a note")
    func minimumOS() throws {
        #expect(MinimumOS(platform: .iOS, written: "12.4").eras.first == AppleOSVersion(12, 2))
        #expect(MinimumOS(platform: .iOS, written: "8.0").eras.first == AppleOSVersion(9))
        #expect(MinimumOS(platform: .iOS, written: nil).eras == [AppleOSVersion.newest])
        #expect(MinimumOS(platform: .macOS, written: "10.15").iOSEquivalent == AppleOSVersion(13))
        let missing = try Fixtures.openIPA(Fixtures.app(info: ["MinimumOSVersion": "soon"]), in: try TemporaryFolder())
        #expect(missing.findings.contains { $0.rule == RuleID.App.minimumOS && $0.severity == .warning })
        let old = try Fixtures.openIPA(Fixtures.app(info: ["MinimumOSVersion": "8.0"]), in: try TemporaryFolder())
        #expect(old.findings.contains { $0.rule == RuleID.App.minimumOS && $0.severity == .note })
    }
}

/// The tests' own path join (AppBundle's is internal).
enum BundlePathJoin {
    static func join(_ base: String, _ name: String) -> String { base.isEmpty ? name : base + "/" + name }
}

/// Issue 21, the era bug: `plist --explain` and the linter (``AppleOSVersion/init(macOS:)``) and `app`
/// (``MinimumOS``) read macOS releases through two tables that disagreed (12.3 → 15.3 or 15.4; 10.9 → 9 or 8).
/// There is one table now; these keep it single.
@Suite("Era bug: one macOS mapping")
struct MacOSEraMappingTests {
    @Test(
        "era bug (issue 21): macOS 12.3 is iOS 15.4 and 10.9 is 8 for plist --explain, the linter and app alike",
        arguments: [
            ("12.3", "15.4"), ("10.9", "8.0"), ("10.11", "9.0"), ("10.15.7", "13.0"), ("12.2", "15.0"),
            ("15.4", "18.4"), ("15.3", "18.0"), ("26.4", "26.4"),
        ])
    func oneMapping(_ macOS: String, _ iOS: String) throws {
        let version = try #require(AppleOSVersion(anyRelease: macOS))
        #expect(AppleOSVersion(macOS: version).description == iOS)
        #expect(MinimumOS(platform: .macOS, written: macOS).iOSEquivalent?.description == iOS)
        let plist =
            "<?xml version=\"1.0\"?><plist version=\"1.0\"><dict><key>LSMinimumSystemVersion</key>"
            + "<string>\(macOS)</string></dict></plist>"
        let document = try PlistDocument.parse(data: Data(plist.utf8), file: "Info.plist")
        #expect(PolicyExplainer.lowestOS(of: document)?.description == iOS)
    }

    @Test("every macOS release from 10.0 to 27.9 maps the same way through each reader")
    func everyRelease() throws {
        for major in 10...27 {
            for minor in 0...(major == 10 ? 15 : 9) {
                let version = AppleOSVersion(major, minor)
                let written = "\(major).\(minor)"
                #expect(
                    MinimumOS(platform: .macOS, written: written).iOSEquivalent == AppleOSVersion(macOS: version),
                    "macOS \(version)")
            }
        }
    }

    @Test("each row of the era table with a macOS release maps that release to the row's iOS version")
    func tableRows() {
        for era in AppleOSEra.all {
            guard let macOS = era.macOS else { continue }
            #expect(AppleOSVersion(macOS: macOS) == era.version, "\(era)")
            #expect(
                MinimumOS(platform: .macOS, written: macOS.description).eras.first
                    == AppleOSEra.judgedEra(containing: era.version)?.version)
        }
        // Shared numbering from 26 on, including releases newer than the table.
        #expect(AppleOSVersion(macOS: AppleOSVersion(27, 1)) == AppleOSVersion(27, 1))
    }
}
