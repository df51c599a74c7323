import Foundation

/// A pinning library the app links, and how (pinning.md §1, §3, §4).
public struct LinkedLibrary: Sendable, Equatable {
    /// The libraries whose default pin loading atscheck models.
    public enum Name: String, Sendable, Equatable, CaseIterable {
        case afNetworking = "AFNetworking"
        case alamofire = "Alamofire"
        case trustKit = "TrustKit"

        /// Strings only that library's code puts in a binary that links it statically: Objective-C class
        /// names, Swift type names (inside mangled names). Chosen to be specific, not exhaustive.
        var staticMarkers: [String] {
            switch self {
            case .afNetworking: return ["AFSecurityPolicy"]
            case .alamofire: return ["PinnedCertificatesTrustEvaluator", "9Alamofire"]
            case .trustKit: return ["TSKPinningValidator"]
            }
        }
    }

    /// How the library is linked.
    public enum Linkage: Sendable, Equatable {
        /// A dynamic framework in the bundle's `Frameworks/` folder (the path of the `.framework`).
        case framework(path: String)
        /// Inside the main executable: the marker string found there.
        case staticallyLinked(marker: String)
    }

    public var name: Name
    /// `CFBundleShortVersionString` of the framework, nil when linked statically or not written.
    public var version: String?
    public var linkage: Linkage

    /// - Parameters: see the properties.
    public init(name: Name, version: String?, linkage: Linkage) {
        self.name = name
        self.version = version
        self.linkage = linkage
    }

    /// The leading number of ``version`` (`3.2.1` → 3), nil when unknown.
    public var majorVersion: Int? { version.flatMap { Int($0.split(separator: ".").first ?? "") } }

    /// Whether AFNetworking's default pins come from its own framework bundle: a dynamic framework before 4.0
    /// (pinning.md §1.1; `bundleForClass:`). Statically linked, that bundle is the main bundle.
    public var loadsPinsFromOwnBundle: Bool {
        guard name == .afNetworking, case .framework = linkage, let major = majorVersion else { return false }
        return major < 4
    }
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
