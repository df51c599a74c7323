import AppBundle
import Foundation
import TLSModel

/// The JSON of `atscheck app`: the report of the contract (schemaVersion, endpoints — empty offline —,
/// findings, summary) with the bundle's facts beside it under `app` and, for a live run, the
/// verdicts per OS era, the exception debt and the pin checks under `live`, as ``AuditJSON`` adds `exceptionDebt`.
public struct AppJSON: Encodable, Sendable {
    /// The result to encode.
    public var result: AppOfflineResult
    /// The live audit, when the endpoints were checked: its report replaces the offline one, and `live` is added.
    public var live: AppLiveResult?
    private enum Keys: String, CodingKey { case app, live }

    /// - Parameter result: The offline result.
    public init(result: AppOfflineResult) { self.result = result }

    /// - Parameter live: The live result (`atscheck app PATH` without `--offline`).
    public init(live: AppLiveResult) {
        self.result = live.offline
        self.live = live
    }

    public func encode(to encoder: Encoder) throws {
        try (live?.report ?? result.report).encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Facts(result), forKey: .app)
        if let live { try container.encode(Live(live), forKey: .live) }
    }

    /// The `live` object: what the endpoints were, the eras judged, each endpoint's verdict per era, the exception
    /// debt (with its eras) and the pin checks.
    struct Live: Encodable {
        var endpointSource: String
        var eras: [String]
        var endpoints: [AppEndpointEras]
        var exceptionDebt: [AppExceptionDebt]
        var pins: [AppPinCheck]

        init(_ live: AppLiveResult) {
            endpointSource = live.endpointSource
            eras = live.eras.map(AppEras.label)
            endpoints = live.endpoints
            exceptionDebt = live.exceptionDebt
            pins = live.pins
        }
    }

    /// The `app` object.
    struct Facts: Encodable {
        var input: String
        var container: String
        var infoPlist: String
        var bundleIdentifier: String?
        var version: String?
        var build: String?
        var minimumOS: MinimumOSJSON
        var eras: [String]
        var libraries: [LibraryJSON]
        var certificates: [CertificateJSON]
        var trustKit: PinSet?
        var pinnedDomains: PinnedDomainsConfiguration?
        var harvestedEndpoints: [EndpointJSON]

        init(_ r: AppOfflineResult) {
            input = r.input
            container = r.container.rawValue
            infoPlist = r.infoPlist
            bundleIdentifier = r.info.bundleIdentifier
            version = r.info.version
            build = r.info.build
            minimumOS = MinimumOSJSON(platform: r.info.minimumOS.platform.rawValue, key: r.info.minimumOS.key, value: r.info.minimumOS.written)
            eras = r.eras.map(\.description)
            libraries = r.libraries.map(LibraryJSON.init)
            certificates = r.certificates.map(CertificateJSON.init)
            trustKit = r.trustKit
            pinnedDomains = r.pinnedDomains
            harvestedEndpoints = r.endpoints.map(EndpointJSON.init)
        }
    }

    struct MinimumOSJSON: Encodable {
        var platform: String
        var key: String
        var value: String?
    }

    struct LibraryJSON: Encodable {
        var name: String
        var version: String?
        /// `framework` or `static`.
        var linkage: String
        /// The framework folder, for `framework`.
        var path: String?
        /// The class name found in the executable, for `static`.
        var marker: String?
        var loadsPinsFromOwnBundle: Bool

        init(_ library: LinkedLibrary) {
            name = library.displayName
            version = library.version
            switch library.linkage {
            case .framework(let path): linkage = "framework"; self.path = path
            case .staticallyLinked(let marker): linkage = "static"; self.marker = marker
            }
            loadsPinsFromOwnBundle = library.loadsPinsFromOwnBundle
        }
    }

    struct CertificateJSON: Encodable {
        var file: String
        var encoding: String
        var loadedBy: [String]
        var subject: String?
        var issuer: String?
        var notAfter: Date?
        var sha256: String?
        var spkiSHA256: String?

        init(_ pin: AppPinFile) {
            file = pin.file
            encoding = pin.encoding.rawValue
            loadedBy = pin.lookups.map(\.rawValue)
            subject = pin.facts?.subject
            issuer = pin.facts?.issuer
            notAfter = pin.facts?.notAfter
            sha256 = pin.facts?.sha256
            spkiSHA256 = pin.facts?.spkiSHA256
        }
    }

    struct EndpointJSON: Encodable {
        var target: String
        var kind: String
        var host: String
        var port: Int?
        var example: String
        var sources: [String]

        init(_ endpoint: HarvestedEndpoint) {
            target = endpoint.target
            kind = endpoint.kind.rawValue
            host = endpoint.host
            port = endpoint.port
            example = endpoint.example
            sources = endpoint.sources.map(\.description)
        }
    }
}
