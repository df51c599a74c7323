import Foundation
import TLSModel

/// What `atscheck app` adds to its scan report (``AppDocument``): the bundle's facts (`app` in the JSON) and, for a
/// live run, the verdicts per OS era, the exception debt and the pin checks (`live`).
///
/// Plain values the facade fills from its results, so the text and the JSON are rendered here without the
/// bundle reader. Strings from the bundle are escaped in the text (a hostile bundle must not write terminal
/// controls).
package struct AppSection: Encodable, Sendable {
    /// The bundle: what it is, its OS range, libraries, pin material and harvested endpoints.
    package var facts: Facts
    /// The live checks; nil with `--offline`.
    package var live: Live?

    /// - Parameters:
    ///   - facts: the bundle's facts.
    ///   - live: the live checks, nil offline.
    package init(facts: Facts, live: Live? = nil) {
        self.facts = facts
        self.live = live
    }

    private enum Keys: String, CodingKey { case app, live }

    /// Encodes `app` and, live, `live` (the members `atscheck app` adds beside the report).
    package func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(facts, forKey: .app)
        try container.encodeIfPresent(live, forKey: .live)
    }

    /// The `live` object: what the endpoints were, the eras judged, each endpoint's verdict per era, the
    /// exception debt (with its eras) and the pin checks.
    package struct Live: Encodable, Sendable {
        /// `harvested`, or the `--endpoints` file that replaced the harvest.
        package var endpointSource: String
        /// The eras judged, as labels (`12`, `15.4`).
        package var eras: [String]
        package var endpoints: [AppEndpointEras]
        package var exceptionDebt: [AppExceptionDebt]
        package var pins: [AppPinCheck]

        /// The live checks of a build.
        package init(
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
    package struct Facts: Encodable, Sendable {
        /// The bundle path as given.
        package var input: String
        /// `ipa`, `app` or `xcarchive`.
        package var container: String
        /// The display path of the app's Info.plist.
        package var infoPlist: String
        package var bundleIdentifier: String?
        package var version: String?
        package var build: String?
        package var minimumOS: MinimumOS
        /// The OS eras the verdicts cover (`12.0`, `15.4`).
        package var eras: [String]
        package var libraries: [Library]
        package var certificates: [Certificate]
        /// `TSKConfiguration`, as TrustKit reads it.
        package var trustKit: PinSet?
        /// `NSPinnedDomains`, as Apple's Security framework reads it.
        package var pinnedDomains: PinnedDomainsConfiguration?
        package var harvestedEndpoints: [Endpoint]
        /// Distinct endpoints found past the harvest's cap and left out; nil (absent from the JSON) when none.
        package var harvestedEndpointsNotShown: Int?
        /// True when ``harvestedEndpointsNotShown`` is a lower bound; nil (absent) otherwise.
        package var harvestedEndpointsNotShownIsLowerBound: Bool?

        /// The facts of a bundle.
        package init(
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
    package struct MinimumOS: Encodable, Sendable {
        /// `iOS`, `macOS`, …
        package var platform: String
        /// The key it was read from (`MinimumOSVersion`, `LSMinimumSystemVersion`).
        package var key: String
        /// The value as written; nil when missing.
        package var value: String?

        package init(platform: String, key: String, value: String?) {
            self.platform = platform
            self.key = key
            self.value = value
        }
    }

    /// A pinning library the bundle links.
    package struct Library: Encodable, Sendable {
        /// `AFNetworking`, `Alamofire`, `TrustKit`.
        package var name: String
        package var version: String?
        /// `framework` or `static`.
        package var linkage: String
        /// The framework folder, for `framework`.
        package var path: String?
        /// The class name found in the executable, for `static`.
        package var marker: String?
        package var loadsPinsFromOwnBundle: Bool

        package init(
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
    package struct Certificate: Encodable, Sendable {
        /// The file's path as shown.
        package var file: String
        /// `der`, `pem` or `unknown`.
        package var encoding: String
        /// The default lookups that read it.
        package var loadedBy: [String]
        package var subject: String?
        package var issuer: String?
        package var notAfter: Date?
        package var sha256: String?
        package var spkiSHA256: String?

        package init(
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
    package struct Endpoint: Encodable, Sendable {
        package var target: String
        package var kind: String
        package var host: String
        package var port: Int?
        /// The first URL it was seen in.
        package var example: String
        /// The places it was found (`file`, `file:line`), the first ones up to the harvest's cap.
        package var sources: [String]
        /// Further places it was found, counted but not listed; nil (absent from the JSON) when none.
        package var sourcesNotShown: Int?

        package init(
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
