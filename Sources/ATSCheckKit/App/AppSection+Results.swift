import AppBundle
import Foundation
import Judging
import Reporting
import TLSModel

extension AppOfflineResult {
    /// The bundle's facts as the report document's app section (the `app` object of the JSON, the text header).
    package var section: AppSection { AppSection(facts: AppSection.Facts(self)) }
}

extension AppLiveResult {
    /// The bundle's facts and the live checks as the report document's app section (`app` and `live`).
    package var section: AppSection {
        AppSection(
            facts: AppSection.Facts(offline),
            live: AppSection.Live(
                endpointSource: endpointSource, eras: eras.map(AppEras.label), endpoints: endpoints,
                exceptionDebt: exceptionDebt, pins: pins))
    }
}

extension AppSection.Facts {
    init(_ r: AppOfflineResult) {
        let minimum = r.info.minimumOS
        let minimumOS = AppSection.MinimumOS(
            platform: minimum.platform.rawValue, key: minimum.key, value: minimum.written)
        self.init(
            input: r.input, container: r.container.rawValue, infoPlist: r.infoPlist,
            bundleIdentifier: r.info.bundleIdentifier, version: r.info.version, build: r.info.build,
            minimumOS: minimumOS,
            eras: r.eras.map(\.description), libraries: r.libraries.map(AppSection.Library.init),
            certificates: r.certificates.map(AppSection.Certificate.init), trustKit: r.trustKit,
            pinnedDomains: r.pinnedDomains, harvestedEndpoints: r.endpoints.map(AppSection.Endpoint.init),
            harvestedEndpointsNotShown: r.endpointsNotShown > 0 ? r.endpointsNotShown : nil,
            harvestedEndpointsNotShownIsLowerBound: r.endpointsNotShownIsLowerBound ? true : nil)
    }
}

extension AppSection.Library {
    init(_ library: LinkedLibrary) {
        var linkage = "framework", path: String?, marker: String?
        switch library.linkage {
        case .framework(let folder): path = folder
        case .staticallyLinked(let name): linkage = "static"; marker = name
        }
        self.init(
            name: library.displayName, version: library.version, linkage: linkage, path: path, marker: marker,
            loadsPinsFromOwnBundle: library.loadsPinsFromOwnBundle)
    }
}

extension AppSection.Certificate {
    init(_ pin: AppPinFile) {
        self.init(
            file: pin.file, encoding: pin.encoding.rawValue, loadedBy: pin.lookups.map(\.rawValue),
            subject: pin.facts?.subject, issuer: pin.facts?.issuer, notAfter: pin.facts?.notAfter,
            sha256: pin.facts?.sha256, spkiSHA256: pin.facts?.spkiSHA256)
    }
}

extension AppSection.Endpoint {
    init(_ endpoint: HarvestedEndpoint) {
        self.init(
            target: endpoint.target, kind: endpoint.kind.rawValue, host: endpoint.host, port: endpoint.port,
            example: endpoint.example, sources: endpoint.sources.map(\.description),
            sourcesNotShown: endpoint.moreSources > 0 ? endpoint.moreSources : nil)
    }
}
