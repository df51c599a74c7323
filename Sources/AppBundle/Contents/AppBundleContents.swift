import ATSPolicy
import Foundation
import TLSModel

/// Everything `atscheck app` reads offline from one bundle. Not `Sendable`: the Info.plist is Foundation's
/// untyped plist value; read it on one task.
public struct AppBundleContents {
    /// The shape of the input.
    public enum Container: String, Sendable, Equatable {
        case ipa, app, xcarchive
    }

    /// The path as the caller gave it.
    public var path: String
    public var container: Container
    public var layout: BundleLayout
    /// The app's Info.plist, parsed (binary or XML; lines for XML). Its `file` is the display path.
    public var infoPlist: PlistDocument
    public var info: AppInfo
    /// The `NSAppTransportSecurity` lint, exactly as `atscheck plist` reports it, for the app's minimum OS.
    public var lint: [Finding]
    /// Embedded frameworks (all of them, pinning or not).
    public var frameworks: [EmbeddedFramework]
    /// The pinning libraries linked (as frameworks or statically).
    public var libraries: [LinkedLibrary]
    /// Every `.cer/.crt/.der` file in the app (any case, any folder), with the lookups that would read it.
    public var certificates: [BundledCertificate]
    /// Files left unread because they are larger than their limit.
    public var skipped: [SkippedFile]
    /// The app's offline findings (`app.*`, `pins.material.*`), beside ``lint``.
    public var findings: [Finding]
    /// The files read: what the endpoint harvester scans.
    public var files: BundleFiles
    /// The executables read (main first, then frameworks and extensions).
    public var executables: [String]

    /// `NSAppTransportSecurity.NSPinnedDomains` as written, for `PinConfigurationParser.pinnedDomains`.
    public var pinnedDomains: [String: Any]? {
        infoPlist.atsDictionary?["NSPinnedDomains"].flatMap { $0 as? [String: Any] }
    }

    /// `TSKConfiguration` as written, for `PinConfigurationParser.trustKit`.
    public var trustKitConfiguration: [String: Any]? { infoPlist.rootDictionary["TSKConfiguration"] as? [String: Any] }

    /// The OS eras the verdicts cover (from the minimum OS to the newest).
    public var eras: [AppleOSVersion] { info.minimumOS.eras }

    /// The path to show for an entry: `Demo.ipa/Payload/Demo.app/Info.plist`, `Demo.app/Info.plist`.
    public func displayPath(_ entry: String) -> String { Self.displayPath(input: path, entry: entry) }

    static func displayPath(input: String, entry: String) -> String {
        let base = input.hasSuffix("/") ? String(input.dropLast()) : input
        return entry.isEmpty ? base : base + "/" + entry
    }

    /// Lint findings and app findings together, by file then line.
    public var offlineFindings: [Finding] { lint + findings }
}

/// A file left unread because it is larger than its limit (reported as `app.file.skipped`).
public struct SkippedFile: Sendable, Equatable {
    /// The path inside the archive or folder.
    public var path: String
    /// Its size (declared, for a zip entry).
    public var size: Int64
    /// The limit it broke.
    public var limit: Int64
}
