/// The caps on what one harvest keeps (docs/app.md): real apps name tens to hundreds of hosts, so the caps only
/// bound what a hostile or generated executable costs.
public struct HarvestLimits: Sendable, Equatable {
    /// The most distinct endpoints kept (the first found, in file order); the rest are counted as not shown.
    public var maxEndpoints: Int
    /// The most places kept per endpoint (the first found); the rest are counted.
    public var maxSourcesPerEndpoint: Int

    /// The defaults.
    public static let `default` = HarvestLimits()

    /// - Parameters: see the properties.
    public init(maxEndpoints: Int = 10_000, maxSourcesPerEndpoint: Int = 20) {
        self.maxEndpoints = maxEndpoints
        self.maxSourcesPerEndpoint = maxSourcesPerEndpoint
    }
}

/// What one harvest found: the endpoints kept, how many more there were, and how many bytes were scanned.
public struct EndpointHarvest: Sendable, Equatable {
    /// The endpoints kept, sorted by host, then kind and port.
    public var endpoints: [HarvestedEndpoint]
    /// Distinct endpoints found beyond ``HarvestLimits/maxEndpoints``, not kept (0 when none).
    public var notShown: Int
    /// Whether ``notShown`` is a lower bound: past 4,194,304 of them, further ones are not told apart.
    public var notShownIsLowerBound: Bool
    /// The bytes scanned for printable runs (executables' string sections, text files); each byte at most once.
    public var scannedBytes: Int

    /// - Parameters: see the properties.
    public init(
        endpoints: [HarvestedEndpoint], notShown: Int = 0, notShownIsLowerBound: Bool = false, scannedBytes: Int = 0
    ) {
        self.endpoints = endpoints
        self.notShown = notShown
        self.notShownIsLowerBound = notShownIsLowerBound
        self.scannedBytes = scannedBytes
    }
}

/// Gathers matches as they are found: one endpoint per (kind, host, port), found in O(1) by a dictionary kept
/// beside the ordered list; at most ``HarvestLimits/maxEndpoints`` endpoints and
/// ``HarvestLimits/maxSourcesPerEndpoint`` places each. Endpoints past the cap are counted by a 64-bit hash of
/// their key (8 bytes each, not the endpoint), up to ``maxCountedExtras``.
struct EndpointCollector {
    struct Key: Hashable {
        var kind: HarvestedEndpoint.Kind
        var host: String
        var port: Int?
    }

    /// The most endpoints past the cap told apart (at most about 64 MB of hashes).
    static let maxCountedExtras = 1 << 22

    let limits: HarvestLimits
    private var kept: [HarvestedEndpoint] = []
    /// Per kept endpoint, the last place counted past its cap (a run of one place is counted once).
    private var lastCounted: [HarvestedEndpoint.Source?] = []
    private var index: [Key: Int] = [:]
    private var extras: Set<Int> = []
    private var extrasSaturated = false
    /// Bytes scanned for printable runs.
    var scannedBytes = 0

    init(limits: HarvestLimits) { self.limits = limits }

    /// Adds one match.
    mutating func add(
        kind: HarvestedEndpoint.Kind, host: String, port: Int?, example: @autoclosure () -> String,
        source: HarvestedEndpoint.Source
    ) {
        let key = Key(kind: kind, host: host, port: port)
        if let at = index[key] {
            addSource(source, to: at)
        } else if kept.count < limits.maxEndpoints {
            index[key] = kept.count
            kept.append(HarvestedEndpoint(kind: kind, host: host, port: port, example: example(), sources: [source]))
            lastCounted.append(nil)
        } else if kind == .host, let at = urlIndex(host: host, port: port) {
            // A bare name joins its URL at the end anyway: it is not an endpoint left out.
            addSource(source, to: at)
        } else if !extrasSaturated {
            if extras.count < Self.maxCountedExtras {
                extras.insert(key.hashValue)
            } else if !extras.contains(key.hashValue) {
                extrasSaturated = true
            }
        }
    }

    private func urlIndex(host: String, port: Int?) -> Int? {
        index[Key(kind: .https, host: host, port: port)] ?? index[Key(kind: .http, host: host, port: port)]
    }

    /// Keeps a place unless it is already kept (or, past the cap, the last one counted), else counts it.
    private mutating func addSource(_ source: HarvestedEndpoint.Source, to at: Int) {
        if kept[at].sources.count < limits.maxSourcesPerEndpoint {
            // At most maxSourcesPerEndpoint to compare: constant time.
            if !kept[at].sources.contains(source) { kept[at].sources.append(source) }
        } else if lastCounted[at] != source, !kept[at].sources.contains(source) {
            kept[at].moreSources += 1
            lastCounted[at] = source
        }
    }

    /// The endpoints: a bare host also written as a URL joins the URL (the HTTPS one when both exist); sorted.
    func finish() -> EndpointHarvest {
        var endpoints = kept
        var dropped = Set<Int>()
        for (at, endpoint) in kept.enumerated() where endpoint.kind == .host {
            guard let into = urlIndex(host: endpoint.host, port: endpoint.port) else { continue }
            dropped.insert(at)
            for source in endpoint.sources where !endpoints[into].sources.contains(source) {
                if endpoints[into].sources.count < limits.maxSourcesPerEndpoint {
                    endpoints[into].sources.append(source)
                } else {
                    endpoints[into].moreSources += 1
                }
            }
            endpoints[into].moreSources += endpoint.moreSources
        }
        let merged = endpoints.enumerated().filter { !dropped.contains($0.offset) }.map(\.element).sorted { a, b in
            (a.host, a.kind, a.port ?? 0) < (b.host, b.kind, b.port ?? 0)
        }
        return EndpointHarvest(
            endpoints: merged, notShown: extras.count, notShownIsLowerBound: extrasSaturated, scannedBytes: scannedBytes
        )
    }
}
