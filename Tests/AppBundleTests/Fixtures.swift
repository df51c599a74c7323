import AppBundle
import AppBundleFixtures
import Foundation

/// A private temporary folder per test, removed when the value is released.
final class TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(
            "atscheck-appbundle-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: url) }

    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
}

enum Fixtures {
    /// Bytes that start like DER (an ASN.1 SEQUENCE): AppBundle does not parse certificates.
    static let fakeDER = Data([0x30, 0x82, 0x01, 0x0A] + [UInt8](repeating: 0x42, count: 266))
    static let pem = Data("-----BEGIN CERTIFICATE-----\nMIIBCgKCAQEA\n-----END CERTIFICATE-----\n".utf8)

    /// A minimal iOS app: Info.plist (binary unless `xml`), an executable with the given strings.
    static func app(
        info: [String: Any] = [:], strings: [String] = ["https://api.acme.com/v1"], xml: Bool = false,
        extra: [String: Data] = [:]
    ) -> BundleTree {
        var plist: [String: Any] = [
            "CFBundleIdentifier": "com.acme.app", "CFBundleShortVersionString": "2.0", "CFBundleExecutable": "App",
            "MinimumOSVersion": "15.0",
        ]
        plist.merge(info) { _, new in new }
        var files: [String: Data] = [
            "Info.plist": xml ? BundleTree.xmlPlist(plist) : BundleTree.binaryPlist(plist),
            "App": Data(MachOWriter.executable(sections: [.cstrings(strings)])),
        ]
        files.merge(extra) { _, new in new }
        return BundleTree(files: files)
    }

    static func framework(_ name: String, version: String?) -> [String: Data] {
        var info: [String: Any] = ["CFBundleExecutable": name, "CFBundleIdentifier": "org.cocoapods.\(name)"]
        if let version { info["CFBundleShortVersionString"] = version }
        return [
            "Frameworks/\(name).framework/Info.plist": BundleTree.binaryPlist(info),
            "Frameworks/\(name).framework/\(name)": Data(MachOWriter.executable(sections: [.cstrings([name])])),
        ]
    }

    /// Zips an app as `Payload/A.app` and opens it.
    static func openIPA(_ tree: BundleTree, in folder: TemporaryFolder, limits: ArchiveLimits = .default) throws
        -> AppBundleContents
    {
        let path = folder.path("A.ipa")
        try tree.prefixed("Payload/A.app").zip(to: URL(fileURLWithPath: path))
        return try AppBundle.open(path: path, limits: limits)
    }
}
