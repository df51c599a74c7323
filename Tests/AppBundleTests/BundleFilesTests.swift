import AppBundle
import AppBundleFixtures
import Foundation
import Testing

/// Following symbolic links: one budget of hops and steps for the whole walk of a path (links met in its parent
/// folders included), and a bundle whose links loop is refused when it is opened.
@Suite("Bundle files: link resolution bounded over the whole walk")
struct BundleFilesTests {
    /// Opens a tree with links as an `.app` folder and as an `.ipa`, returning each outcome.
    static func openBoth(_ tree: BundleTree) throws -> [(String, Result<AppBundleContents, AppBundleError>)] {
        let folder = try TemporaryFolder()
        let app = folder.url.appendingPathComponent("A.app")
        try tree.write(to: app)
        let ipa = folder.path("A.ipa")
        try Data(RawZip(tree.prefixed("Payload/A.app")).bytes()).write(to: URL(fileURLWithPath: ipa))
        return [app.path, ipa].map { ($0, outcome($0)) }
    }

    static func outcome(_ path: String) -> Result<AppBundleContents, AppBundleError> {
        do { return .success(try AppBundle.open(path: path)) } catch let error as AppBundleError {
            return .failure(error)
        } catch {
            Issue.record("unexpected \(error)")
            return .failure(AppBundleError(.unreadable, file: path, reason: "\(error)"))
        }
    }

    @Test(
        "issue 25 row 4: links that loop are refused in an .app folder and in an .ipa, with one line naming the link",
        arguments: [
            ["Contents": "Contents/x"],  // under itself: every step adds a component
            ["a": "b", "b": "a"],  // a cycle of two
            ["a": "b/x", "b": "a/y"],  // a cycle through parent folders
            ["Frameworks": "Frameworks/Frameworks"],
        ])
    func loops(links: [String: String]) throws {
        var tree = Fixtures.app()
        tree.symlinks = links
        for (path, outcome) in try Self.openBoth(tree) {
            guard case .failure(let error) = outcome else {
                Issue.record("\(path) was accepted")
                continue
            }
            #expect(error.code == .symlinkLoop, "\(path)")
            #expect(error.description.hasPrefix(path + ": symbolic link "))
            #expect(error.reason.contains(" loops: "))
            #expect(!error.description.contains("\n"))
        }
    }

    @Test("a chain of 40 links resolves; 41 is refused (the budget is per walk, parents included)")
    func chainLength() throws {
        func chain(_ length: Int) -> BundleTree {
            var tree = Fixtures.app()
            tree.files["real/Data.json"] = Data("{}".utf8)
            // l0 -> l1 -> ... -> l(n-1) -> real: each link is one hop, met as the parent folder of the path.
            for index in 0..<length { tree.symlinks["l\(index)"] = index == length - 1 ? "real" : "l\(index + 1)" }
            return tree
        }
        for (path, outcome) in try Self.openBoth(chain(BundleFiles.maxLinkHops)) {
            let bundle = try outcome.get()
            let root = path.hasSuffix(".ipa") ? "Payload/A.app/" : ""
            #expect(bundle.files.resolve(root + "l0/Data.json") == root + "real/Data.json")
            #expect(bundle.files.resolution(of: root + "l0/missing") == .missing)
        }
        for (_, outcome) in try Self.openBoth(chain(BundleFiles.maxLinkHops + 1)) {
            #expect(throws: AppBundleError(.symlinkLoop, file: "", reason: "")) { try outcome.get() }
        }
    }

    @Test("macOS Versions/Current links still resolve through parent folders")
    func versionsCurrent() throws {
        var tree = Fixtures.app()
        tree.files["F.framework/Versions/A/Resources/Info.plist"] = BundleTree.binaryPlist(["CFBundleExecutable": "F"])
        tree.symlinks["F.framework/Versions/Current"] = "A"
        tree.symlinks["F.framework/Resources"] = "Versions/Current/Resources"
        for (path, outcome) in try Self.openBoth(tree) {
            let files = try outcome.get().files
            let root = path.hasSuffix(".ipa") ? "Payload/A.app/" : ""
            #expect(
                files.resolution(of: root + "F.framework/Resources/Info.plist")
                    == .found(root + "F.framework/Versions/A/Resources/Info.plist"))
            #expect(files.resolution(of: root + "F.framework/Resources/Info.plist/x") == .missing)
        }
    }
}
