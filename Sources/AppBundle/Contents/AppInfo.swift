import ATSPolicy
import Foundation

/// The identity of the app, from its Info.plist.
public struct AppInfo: Sendable, Equatable {
    /// `CFBundleIdentifier`.
    public var bundleIdentifier: String?
    /// `CFBundleShortVersionString` (the marketing version).
    public var version: String?
    /// `CFBundleVersion` (the build number).
    public var build: String?
    /// `CFBundleExecutable`.
    public var executable: String?
    /// `CFBundleDisplayName`, else `CFBundleName`.
    public var name: String?
    /// The minimum OS and the eras it implies.
    public var minimumOS: MinimumOS

    /// Reads the keys of a parsed Info.plist.
    /// - Parameters:
    ///   - document: The Info.plist.
    ///   - style: The bundle's layout (a `Contents/` bundle is macOS even without `LSMinimumSystemVersion`).
    public init(document: PlistDocument, style: BundleLayout.Style) {
        let root = document.rootDictionary
        func string(_ key: String) -> String? { root[key] as? String }
        bundleIdentifier = string("CFBundleIdentifier")
        version = string("CFBundleShortVersionString")
        build = string("CFBundleVersion")
        executable = string("CFBundleExecutable")
        name = string("CFBundleDisplayName") ?? string("CFBundleName")
        let macOS = style == .contents || (root["MinimumOSVersion"] == nil && root["LSMinimumSystemVersion"] != nil)
        minimumOS =
            macOS
            ? MinimumOS(platform: .macOS, written: string("LSMinimumSystemVersion"))
            : MinimumOS(platform: .iOS, written: string("MinimumOSVersion"))
    }
}
