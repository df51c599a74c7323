/// Where things are inside one `.app`: iOS-style (everything at the top) or macOS-style (`Contents/`).
public struct BundleLayout: Sendable, Equatable {
    /// The two shapes of an app bundle.
    public enum Style: String, Sendable, Equatable {
        /// iOS, iPadOS, tvOS, visionOS, watchOS: `NAME.app/Info.plist`, `NAME.app/Frameworks/`.
        case flat
        /// macOS: `NAME.app/Contents/Info.plist`, `Contents/Resources/`, `Contents/Frameworks/`, `Contents/MacOS/`.
        case contents
    }

    /// The `.app` folder, from the root of the archive or folder ("" when the input is the `.app` itself).
    public var appRoot: String
    public var style: Style

    /// The app's Info.plist.
    public var infoPlist: String { path(style == .flat ? "Info.plist" : "Contents/Info.plist") }
    /// The folder `Bundle.main`'s resource lookups read (the top level AFNetworking 4 and Alamofire search).
    public var resources: String { path(style == .flat ? "" : "Contents/Resources") }
    /// The folder of embedded frameworks.
    public var frameworks: String { path(style == .flat ? "Frameworks" : "Contents/Frameworks") }
    /// The folder of app extensions.
    public var plugIns: String { path(style == .flat ? "PlugIns" : "Contents/PlugIns") }
    /// The main executable, given `CFBundleExecutable`.
    public func executable(named name: String) -> String {
        path(style == .flat ? name : "Contents/MacOS/" + name)
    }

    private func path(_ inside: String) -> String { BundlePath.join(appRoot, inside) }

    /// A nested bundle (`X.framework`, `Y.appex`): where its Info.plist, resources and executable are.
    /// macOS frameworks keep them under `Resources/` (through the `Versions/Current` links); iOS ones at the top.
    static func nested(_ bundle: String, in files: BundleFiles) -> (
        infoPlist: String, resources: String, executableFolder: String
    ) {
        for candidate in ["Resources/Info.plist", "Contents/Info.plist"]
        where files.isFile(BundlePath.join(bundle, candidate)) {
            let base = candidate.hasPrefix("Contents") ? "Contents" : ""
            let resources = BundlePath.join(
                bundle, candidate.hasPrefix("Contents") ? "Contents/Resources" : "Resources")
            return (
                BundlePath.join(bundle, candidate), resources,
                BundlePath.join(bundle, base.isEmpty ? "" : "Contents/MacOS")
            )
        }
        return (BundlePath.join(bundle, "Info.plist"), bundle, bundle)
    }
}
