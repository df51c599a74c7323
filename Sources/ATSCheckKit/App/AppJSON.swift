import AppBundle
import Foundation
import TLSModel

/// The JSON of `atscheck app --offline`: the report of the contract (schemaVersion, endpoints — empty here —,
/// findings, summary) with the bundle's facts beside it under `app`, as ``AuditJSON`` adds `exceptionDebt`.
public struct AppJSON: Encodable, Sendable {
    /// The result to encode.
    public var result: AppOfflineResult
    private enum Keys: String, CodingKey { case app }

    /// - Parameter result: The offline result.
    public init(result: AppOfflineResult) { self.result = result }

    public func encode(to encoder: Encoder) throws {
        try result.report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(Facts(result), forKey: .app)
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
            name = library.name.rawValue
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
