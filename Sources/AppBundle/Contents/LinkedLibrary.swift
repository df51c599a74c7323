import Foundation
import Pinning
import TLSModel

/// A pinning library the app links, and how (docs/pinning-rules.md §1, §3, §4).
public struct LinkedLibrary: Sendable, Equatable {
    /// How the library is linked.
    public enum Linkage: Sendable, Equatable {
        /// A dynamic framework in the bundle's `Frameworks/` folder (the path of the `.framework`).
        case framework(path: String)
        /// Inside the main executable: the marker string found there.
        case staticallyLinked(marker: String)
    }

    /// The library (its id in ``PinningLibraries``).
    public var name: PinLibrary
    /// `CFBundleShortVersionString` of the framework, nil when linked statically or not written.
    public var version: String?
    public var linkage: Linkage

    /// - Parameters: see the properties.
    public init(name: PinLibrary, version: String?, linkage: Linkage) {
        self.name = name
        self.version = version
        self.linkage = linkage
    }

    /// The library's name as its users write it (`AFNetworking`).
    public var displayName: String { PinningLibraries.named(name)?.name ?? name.rawValue }

    /// The leading number of ``version`` (`3.2.1` → 3), nil when unknown.
    public var majorVersion: Int? { version.flatMap { Int($0.split(separator: ".").first ?? "") } }

    /// The lookup its copy reads bundled certificate files with (``PinningLibrary/bundleLookup(linkedAsFramework:majorVersion:)``);
    /// nil when the library loads none.
    public var bundleLookup: BundleLookup? {
        var framework = false
        if case .framework = linkage { framework = true }
        return PinningLibraries.named(name)?.bundleLookup(linkedAsFramework: framework, majorVersion: majorVersion)
    }

    /// Whether its default pins come from its own framework bundle (AFNetworking as a dynamic framework before 4.0,
    /// docs/pinning-rules.md §1.1; `bundleForClass:`). Statically linked, that bundle is the main bundle.
    public var loadsPinsFromOwnBundle: Bool { bundleLookup?.folder == .ownFramework }
}

/// A framework embedded in the app, whether or not it pins.
public struct EmbeddedFramework: Sendable, Equatable {
    /// The `.framework` folder.
    public var path: String
    /// The folder name without `.framework`.
    public var name: String
    public var bundleIdentifier: String?
    /// `CFBundleShortVersionString`.
    public var version: String?
    /// Its executable, when present.
    public var executable: String?
    /// Where its top-level resources are (the folder `bundleForClass:` lookups read).
    public var resources: String
}
