import Foundation
import TLSModel

/// A default lookup by which a pinning library reads certificate files from an app bundle (docs/pinning-rules.md §1.1,
/// §4): which folder, which extensions. Each library declares its own (``PinningLibrary/bundleLookups``); AppBundle
/// marks every certificate file with the lookups that read it, and `atscheck app` loads the files of the lookup the
/// linked library uses (``PinningLibrary/bundleLookup(linkedAsFramework:majorVersion:)``). A library that declares
/// none loads no certificate files, and `app` says so instead of borrowing another library's files.
public struct BundleLookup: RawRepresentable, Sendable, Hashable {
    /// Where the files are read from.
    public enum Folder: Sendable, Hashable {
        /// The top level of the main bundle's resources (`Bundle.main`).
        case mainBundle
        /// The top level of the library's own framework bundle (`bundleForClass:`), found by its
        /// ``PinLibrarySignature/framework`` name.
        case ownFramework
    }

    /// The name shown in reports (`AFNetworking (main bundle)`).
    public var rawValue: String
    /// The folder it reads.
    public var folder: Folder
    /// The extensions it reads, as written: NSBundle matches an extension's case exactly (`cer` does not read `.CER`).
    public var extensions: [String]

    /// A lookup.
    /// - Parameters:
    ///   - name: The name shown in reports.
    ///   - folder: The folder it reads.
    ///   - extensions: The extensions it reads, case as written.
    public init(_ name: String, folder: Folder, extensions: [String]) {
        self.rawValue = name
        self.folder = folder
        self.extensions = extensions
    }

    /// The registered lookup named `rawValue`; nil when no library declares it.
    public init?(rawValue: String) {
        guard let lookup = PinningLibraries.all.flatMap(\.bundleLookups).first(where: { $0.rawValue == rawValue })
        else { return nil }
        self = lookup
    }

    /// Whether it reads a file with extension `ext` in `folder`.
    public func reads(ext: String, in folder: Folder) -> Bool { self.folder == folder && extensions.contains(ext) }
}

/// A copy of a library an app links, as `atscheck app` found it: what a library needs to say where that copy loads
/// its pins from (``PinningLibrary/loadingNote(_:)``).
public struct LinkedCopy {
    /// Whether it is an embedded dynamic framework (else linked statically).
    public var linkedAsFramework: Bool
    /// The leading number of its version, nil when unknown.
    public var majorVersion: Int?
    /// How many of the app's certificate files a lookup reads.
    public var files: (BundleLookup) -> Int
    /// The app's Info.plist, top level.
    public var infoPlist: [String: Any]

    /// A copy.
    /// - Parameters: see the properties.
    public init(
        linkedAsFramework: Bool, majorVersion: Int?, files: @escaping (BundleLookup) -> Int, infoPlist: [String: Any]
    ) {
        self.linkedAsFramework = linkedAsFramework
        self.majorVersion = majorVersion
        self.files = files
        self.infoPlist = infoPlist
    }

    /// `1 file`, `3 files`.
    public static func count(_ n: Int, _ noun: String) -> String { n == 1 ? "1 \(noun)" : "\(n) \(noun)s" }
}
