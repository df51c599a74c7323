import Foundation
import TLSModel

/// What `atscheck app` adds to its scan report (``AppDocument``): the bundle's facts (`app` in the JSON) and, for a
/// live run, the verdicts per OS era, the exception debt and the pin checks (`live`).
///
/// Plain values the facade fills from its results, so the text and the JSON are rendered here without the
/// bundle reader. Strings from the bundle are escaped in the text (a hostile bundle must not write terminal
/// controls).
public struct AppSection: Encodable, Sendable {
    /// The bundle: what it is, its OS range, libraries, pin material and harvested endpoints.
    public var facts: Facts
    /// The live checks; nil with `--offline`.
    public var live: Live?

    /// - Parameters:
    ///   - facts: the bundle's facts.
    ///   - live: the live checks, nil offline.
    public init(facts: Facts, live: Live? = nil) {
        self.facts = facts
        self.live = live
    }

    private enum Keys: String, CodingKey { case app, live }

    /// Encodes `app` and, live, `live` (the members `atscheck app` adds beside the report).
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(facts, forKey: .app)
        try container.encodeIfPresent(live, forKey: .live)
    }

    /// The `live` object: what the endpoints were, the eras judged, each endpoint's verdict per era, the
    /// exception debt (with its eras) and the pin checks.
    public struct Live: Encodable, Sendable {
        /// `harvested`, or the `--endpoints` file that replaced the harvest.
        public var endpointSource: String
        /// The eras judged, as labels (`12`, `15.4`).
        public var eras: [String]
        public var endpoints: [AppEndpointEras]
        public var exceptionDebt: [AppExceptionDebt]
        public var pins: [AppPinCheck]

        /// The live checks of a build.
        public init(
            endpointSource: String, eras: [String], endpoints: [AppEndpointEras], exceptionDebt: [AppExceptionDebt],
            pins: [AppPinCheck]
        ) {
            self.endpointSource = endpointSource
            self.eras = eras
            self.endpoints = endpoints
            self.exceptionDebt = exceptionDebt
            self.pins = pins
        }
    }

    /// The `app` object.
    public struct Facts: Encodable, Sendable {
        /// The bundle path as given.
        public var input: String
        /// `ipa`, `app` or `xcarchive`.
        public var container: String
        /// The display path of the app's Info.plist.
        public var infoPlist: String
        public var bundleIdentifier: String?
        public var version: String?
        public var build: String?
        public var minimumOS: MinimumOS
        /// The OS eras the verdicts cover (`12.0`, `15.4`).
        public var eras: [String]
        public var libraries: [Library]
        public var certificates: [Certificate]
        /// `TSKConfiguration`, as TrustKit reads it.
        public var trustKit: PinSet?
        /// `NSPinnedDomains`, as Apple's Security framework reads it.
        public var pinnedDomains: PinnedDomainsConfiguration?
        public var harvestedEndpoints: [Endpoint]
        /// Distinct endpoints found past the harvest's cap and left out; nil (absent from the JSON) when none.
        public var harvestedEndpointsNotShown: Int?
        /// True when ``harvestedEndpointsNotShown`` is a lower bound; nil (absent) otherwise.
        public var harvestedEndpointsNotShownIsLowerBound: Bool?

        /// The facts of a bundle.
        public init(
            input: String, container: String, infoPlist: String, bundleIdentifier: String?, version: String?,
            build: String?, minimumOS: MinimumOS, eras: [String], libraries: [Library], certificates: [Certificate],
            trustKit: PinSet?, pinnedDomains: PinnedDomainsConfiguration?, harvestedEndpoints: [Endpoint],
            harvestedEndpointsNotShown: Int? = nil, harvestedEndpointsNotShownIsLowerBound: Bool? = nil
        ) {
            self.input = input
            self.container = container
            self.infoPlist = infoPlist
            self.bundleIdentifier = bundleIdentifier
            self.version = version
            self.build = build
            self.minimumOS = minimumOS
            self.eras = eras
            self.libraries = libraries
            self.certificates = certificates
            self.trustKit = trustKit
            self.pinnedDomains = pinnedDomains
            self.harvestedEndpoints = harvestedEndpoints
            self.harvestedEndpointsNotShown = harvestedEndpointsNotShown
            self.harvestedEndpointsNotShownIsLowerBound = harvestedEndpointsNotShownIsLowerBound
        }
    }

    /// The minimum OS the bundle declares.
    public struct MinimumOS: Encodable, Sendable {
        /// `iOS`, `macOS`, …
        public var platform: String
        /// The key it was read from (`MinimumOSVersion`, `LSMinimumSystemVersion`).
        public var key: String
        /// The value as written; nil when missing.
        public var value: String?

        public init(platform: String, key: String, value: String?) {
            self.platform = platform
            self.key = key
            self.value = value
        }
    }

    /// A pinning library the bundle links.
    public struct Library: Encodable, Sendable {
        /// `AFNetworking`, `Alamofire`, `TrustKit`.
        public var name: String
        public var version: String?
        /// `framework` or `static`.
        public var linkage: String
        /// The framework folder, for `framework`.
        public var path: String?
        /// The class name found in the executable, for `static`.
        public var marker: String?
        public var loadsPinsFromOwnBundle: Bool

        public init(
            name: String, version: String?, linkage: String, path: String?, marker: String?,
            loadsPinsFromOwnBundle: Bool
        ) {
            self.name = name
            self.version = version
            self.linkage = linkage
            self.path = path
            self.marker = marker
            self.loadsPinsFromOwnBundle = loadsPinsFromOwnBundle
        }
    }

    /// A certificate file of the bundle; the certificate's fields are nil when it is unreadable.
    public struct Certificate: Encodable, Sendable {
        /// The file's path as shown.
        public var file: String
        /// `der`, `pem` or `unknown`.
        public var encoding: String
        /// The default lookups that read it.
        public var loadedBy: [String]
        public var subject: String?
        public var issuer: String?
        public var notAfter: Date?
        public var sha256: String?
        public var spkiSHA256: String?

        public init(
            file: String, encoding: String, loadedBy: [String], subject: String?, issuer: String?, notAfter: Date?,
            sha256: String?, spkiSHA256: String?
        ) {
            self.file = file
            self.encoding = encoding
            self.loadedBy = loadedBy
            self.subject = subject
            self.issuer = issuer
            self.notAfter = notAfter
            self.sha256 = sha256
            self.spkiSHA256 = spkiSHA256
        }
    }

    /// An endpoint harvested from the bundle.
    public struct Endpoint: Encodable, Sendable {
        public var target: String
        public var kind: String
        public var host: String
        public var port: Int?
        /// The first URL it was seen in.
        public var example: String
        /// The places it was found (`file`, `file:line`), the first ones up to the harvest's cap.
        public var sources: [String]
        /// Further places it was found, counted but not listed; nil (absent from the JSON) when none.
        public var sourcesNotShown: Int?

        public init(
            target: String, kind: String, host: String, port: Int?, example: String, sources: [String],
            sourcesNotShown: Int? = nil
        ) {
            self.target = target
            self.kind = kind
            self.host = host
            self.port = port
            self.example = example
            self.sources = sources
            self.sourcesNotShown = sourcesNotShown
        }
    }
}
