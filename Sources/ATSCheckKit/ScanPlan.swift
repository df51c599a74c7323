import ATSPolicy
import AppleTrust
import CertificateTrust
import Foundation
import Judging
import Synchronization
import TLSModel
import TLSProbe

/// A `--resolve host:port:address` rule: connect to `address`, keep `host` for SNI and checks.
public struct ResolveRule: Hashable, Sendable {
    public var host: String
    public var port: Int
    public var address: String

    /// Parses `host:port:address` (the address may be a bracketed or bare IPv6 literal).
    /// - Throws: ``TargetError`` with a one-line reason.
    public init(parsing text: String) throws {
        let parts = text.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, let port = Int(parts[1]), (1...65535).contains(port),
            !parts[2].isEmpty
        else {
            throw TargetError(
                text: text, reason: "--resolve takes HOST:PORT:ADDRESS, e.g. api.example.com:443:127.0.0.1")
        }
        var address = String(parts[2])
        if address.hasPrefix("["), address.hasSuffix("]") { address = String(address.dropFirst().dropLast()) }
        guard IPAddress(address) != nil else {
            throw TargetError(text: text, reason: "'\(address)' is not an IP address")
        }
        self.host = parts[0].lowercased()
        self.port = port
        self.address = address
    }

    public init(host: String, port: Int, address: String) {
        self.host = host
        self.port = port
        self.address = address
    }
}

/// How to scan: the options every scanning command shares.
public struct ScanSettings: Sendable {
    /// How a plist given with `--plist` is read (`--define`, `--build-setting`, `--xcconfig`).
    public var plistReading = PlistReadOptions()
    public var resolve: [ResolveRule] = []
    public var allAddresses = false
    public var sni: String?
    public var timeout: Double = 5
    /// Overall deadline per endpoint; default scales with the timeout.
    public var endpointDeadline: Double?
    public var caFiles: [String] = []
    public var concurrency = 8
    public var perHost = 16
    public var now: Date?
    public var useSystemTrustStore = true
    /// `--trust-store`: the roots that stand in for the OS's preinstalled ones (Apple's stores per release by default).
    public var trustSource: TrustStoreSource = .apple(AppleTrustBundle.bundled)
    /// `--ct-log-list`: the CT log list SCTs are checked against (Apple's bundled list by default).
    public var ctLogList: CTLogList? = AppleTrustBundle.bundled.logList
    /// `--warn-days`: warn about certificates expiring within this many days (``ExpiryWarnings``); nil: no warning.
    public var expiryWarningDays: Int?
    /// `--require-pq`: an endpoint whose iOS 26 connections are not quantum-secure is a
    /// `required.quantum-secure` error (``QuantumSecureRequirement``); unknown is a note.
    package var requireQuantumSecure = false
    /// `--no-simulation` clears it: whether scans simulate Apple's clients with their own ClientHellos and check the
    /// two-segment ClientHello (issue 36).
    package var simulatesClients = true
    /// `diagnose --tls-diagnostics --older-sdk`: iOS 26 is simulated as URLSession in an app built with an SDK older
    /// than iOS 26's, which still offers TLS 1.0 and 1.1 (``AppleSimulatedClient/newestOlderSDK``), in place of the
    /// iOS 26 SDK's client.
    package var simulatesOlderSDK = false
    /// `--ats-only`: probe only what the ATS verdict reads (at most 6 handshakes per endpoint).
    public var scope: ProbeScope = .full
    /// `--delay`: the least time, in seconds, between two connection starts to one connect address (0: none).
    public var connectionDelay: Double = 0
    /// `--no-preconnect` clears it: whether full enumeration opens connections ahead of its steps.
    public var preconnect = true
    /// `--proxy` / `HTTPS_PROXY` with `NO_PROXY`: the HTTP proxy connections are tunnelled through, per target
    /// (nil: every connection goes direct).
    public var proxy: ProxySettings?
    /// `--no-fetch` clears it: whether an issuer missing from a served chain is fetched from its caIssuers URL, as
    /// trustd does (docs/path-building.md, "Missing intermediates").
    public var fetchIssuers = true
    /// `--apple-data` (or the data folder): what the run judges trust with, for every report (``TrustDataInfo``).
    public var trustData: TrustDataInfo?
    /// How long the endpoints in flight may still take once the scan is cancelled (Ctrl-C): those not done by then
    /// are abandoned and reported `cancelled` (``BatchScanner``).
    public var cancellationGrace: Duration = BatchScanner.defaultGrace

    public init() {}

    /// The run's fetcher of missing issuers: once per URL per run, through the run's proxy (the URL's host decides,
    /// as for a target), HTTPS verified against this machine's store and `--ca-file`; off with `--no-fetch`.
    package func makeIssuerFetcher() -> IssuerFetcher {
        guard fetchIssuers else { return .disabled }
        return IssuerFetcher(transport: makeHTTPFetcher())
    }

    /// The judge of chains without a handshake (``ChainJudging``) for these trust inputs: `--trust-store`, `--ca-file`,
    /// `--ct-log-list`; a missing issuer fetched through the run's ``IssuerFetcher`` when `fetchingIssuers` (and not
    /// `--no-fetch`).
    /// - Throws: ``ProbeFailure`` when the trust data or a CA file cannot be read.
    /// > Warning: Reads the CA files and builds a store per trust-store release: build one per run.
    package func makeChainJudge(fetchingIssuers: Bool) throws -> any ChainJudging {
        try ChainReports(
            source: trustSource, caFiles: caFiles, useSystemStore: useSystemTrustStore, logList: ctLogList,
            download: fetchingIssuers ? makeIssuerFetcher().blockingDownload : nil)
    }

    /// The run's HTTP client (``HTTPFetcher``): the run's proxy per URL host and `--ca-file`.
    package func makeHTTPFetcher() -> HTTPFetcher {
        let proxy = self.proxy
        return HTTPFetcher(caFiles: caFiles) { host, port in
            proxy?.proxy(for: Target(host: host, port: port), connectAddress: nil)
        }
    }

    /// The `--resolve` rules that apply to none of the targets and entries (a usage error: the run would
    /// otherwise connect somewhere else than the user meant without a word).
    /// - Returns: the rules, in the order given.
    public func unusedResolveRules(targets: [Target], entries: [EndpointEntry] = []) -> [ResolveRule] {
        let all = targets + entries.map(\.target)
        return resolve.filter { rule in !all.contains { $0.host == rule.host && $0.port == rule.port } }
    }

    /// The OpenSSL prober these settings describe (`--per-host`, `--delay`, `--no-preconnect`). It simulates every
    /// Apple era in a full scan; in an ats-only scan only with `--require-pq`, and then the newest client alone, so
    /// that the readiness it asks about is known (one connection beyond the six handshakes); with `--older-sdk`,
    /// iOS 26 as an app built with an older SDK; with `--no-simulation`, no client and no ClientHello size check.
    package func makeProber() -> TLSProber {
        var clients: SimulatedClients = requireQuantumSecure ? .everyEraAndNewestInATSOnly : .everyEra
        if simulatesOlderSDK { clients = clients.replacingNewest(with: .newestOlderSDK) }
        return TLSProber(
            perHostLimit: perHost, connectionDelay: connectionDelay, preconnect: preconnect,
            issuers: makeIssuerFetcher(), simulatedClients: simulatesClients ? clients : nil,
            checksHelloSize: simulatesClients)
    }

    /// The probe request these settings give a target: `--resolve`, `--sni`, timeouts, anchors and the proxy.
    /// - Parameters:
    ///   - connectAddress: an address that wins over `--resolve` (an endpoint list's own `resolve`).
    ///   - sni: an SNI that wins over `--sni`.
    ///   - extraCAFiles: anchors added to `--ca-file` for this target.
    public func request(
        for target: Target, connectAddress: String? = nil, sni: String? = nil, extraCAFiles: [String] = []
    ) -> ProbeRequest {
        let resolved = resolve.first { $0.host == target.host && $0.port == target.port }?.address
        var request = ProbeRequest(
            target: target, connectAddress: connectAddress ?? resolved, sni: sni ?? self.sni, timeout: timeout,
            deadline: endpointDeadline ?? max(30, timeout * 12), caFiles: caFiles + extraCAFiles, now: now,
            useSystemTrustStore: useSystemTrustStore)
        request.scope = scope
        request.trustSource = trustSource
        request.ctLogList = ctLogList
        request.proxy = proxy?.proxy(for: target, connectAddress: request.connectAddress)
        return request
    }
}

/// `--resolve` rules that match no target or entry of the run (exit 64 in the CLI).
public struct UnusedResolveRules: Error, Sendable, Equatable {
    /// The rules, in the order given.
    public var rules: [ResolveRule]

    public init(_ rules: [ResolveRule]) { self.rules = rules }
}

/// Turns targets into probe requests: applies `--resolve`, `--sni` and `--all-addresses`.
public enum ScanPlanner {
    /// Plans one request per target (per address with `--all-addresses`), in target order.
    ///
    /// > Warning: with `allAddresses`, looks names up: every look-up at once, each bounded by the
    /// > per-connection timeout. A name that does not resolve in time is planned once, and its scan
    /// > reports the failure.
    /// - Parameter resolver: who looks names up (default: the system resolver on the OpenSSL prober's threads).
    public static func plan(
        _ targets: [Target], settings: ScanSettings, resolver: (any AddressResolver)? = nil
    ) async -> [PlannedEndpoint] {
        await planEach(targets, settings: settings, resolver: resolver).flatMap { $0 }
    }

    /// ``plan(_:settings:resolver:)``, grouped by target: element `i` holds target `i`'s endpoints.
    public static func planEach(
        _ targets: [Target], settings: ScanSettings, resolver: (any AddressResolver)? = nil
    ) async -> [[PlannedEndpoint]] {
        let requests = targets.map { settings.request(for: $0) }
        var planned = zip(targets, requests).map { [PlannedEndpoint(target: $0, request: $1)] }
        // --resolve pins the address; an IP literal needs no look-up.
        let lookups = targets.indices.filter {
            settings.allAddresses && requests[$0].connectAddress == nil && !targets[$0].isIPLiteral
        }
        guard !lookups.isEmpty else { return planned }
        let resolver = resolver ?? settings.makeProber()
        let timeout = settings.timeout
        let answers = await withTaskGroup(of: (Int, [String]).self) { group in
            for index in lookups {
                let target = targets[index]
                group.addTask {
                    (index, await lookUp(target.host, port: target.port, timeout: timeout, with: resolver))
                }
            }
            return await group.reduce(into: [Int: [String]]()) { $0[$1.0] = $1.1 }
        }
        for (index, addresses) in answers where !addresses.isEmpty {
            planned[index] = addresses.map { address in
                var perAddress = requests[index]
                perAddress.connectAddress = address
                // Through a proxy each address is sent to it (CONNECT address:port), as with --resolve.
                perAddress.proxy = settings.proxy?.proxy(for: targets[index], connectAddress: address)
                return PlannedEndpoint(target: targets[index], request: perAddress)
            }
        }
        return planned
    }

    /// Probe requests for the `https` entries of an endpoint list, with the index of each in the list.
    /// An entry's own `resolve`, `sni` and `caFile` win over `--resolve`, `--sni`, and add to `--ca-file`;
    /// `allAddresses` is not applied to endpoint lists.
    public static func plan(
        entries: [EndpointEntry], settings: ScanSettings
    ) -> [(index: Int, planned: PlannedEndpoint)] {
        entries.enumerated().compactMap { index, entry in
            guard !entry.isHTTP else { return nil }
            let request = settings.request(
                for: entry.target, connectAddress: entry.resolve, sni: entry.sni,
                extraCAFiles: entry.caFile.map { [$0] } ?? [])
            return (index, PlannedEndpoint(target: entry.target, request: request, source: entry.source))
        }
    }

    /// The one plan of a run (issue 21): command-line targets take slots `0..<targets.count`, endpoint-list
    /// entries the slots after them, and every planned endpoint records its slot. `http://` targets and entries
    /// are not planned (ATS judges them by their scheme); `--all-addresses` gives a target several endpoints.
    ///
    /// > Warning: with `allAddresses`, looks names up (``planEach(_:settings:resolver:)``).
    public static func batch(
        targets: [Target], entries: [EndpointEntry] = [], settings: ScanSettings, resolver: (any AddressResolver)? = nil
    ) async -> ProbeBatch {
        let tls = targets.enumerated().filter { $0.element.scheme != "http" }
        let planned = await planEach(tls.map(\.element), settings: settings, resolver: resolver)
        var batch = ProbeBatch(slots: targets.count + entries.count)
        for ((slot, _), endpoints) in zip(tls, planned) {
            batch.plan += endpoints
            batch.owner += Array(repeating: slot, count: endpoints.count)
        }
        for item in plan(entries: entries, settings: settings) {
            batch.plan.append(item.planned)
            batch.owner.append(targets.count + item.index)
        }
        return batch
    }

    /// The addresses of one name, or none when the look-up fails or outlives `timeout`: whichever of
    /// the resolver and the deadline answers first wins, so a resolver that ignores its timeout cannot
    /// hold the plan (its answer, if it ever comes, is dropped).
    static func lookUp(_ host: String, port: Int, timeout: Double, with resolver: any AddressResolver) async -> [String]
    {
        await withCheckedContinuation { continuation in
            let answer = FirstAnswer(continuation)
            let timer = Task {
                try? await Task.sleep(for: .seconds(timeout))
                answer.give([])
            }
            Task {
                answer.give((try? await resolver.addresses(of: host, port: port, timeout: timeout)) ?? [])
                timer.cancel()
            }
        }
    }
}

/// A continuation resumed by the first of several racing answers; later ones are dropped.
final class FirstAnswer<T: Sendable>: Sendable {
    private let continuation: Mutex<CheckedContinuation<T, Never>?>

    init(_ continuation: CheckedContinuation<T, Never>) { self.continuation = Mutex(continuation) }

    func give(_ value: T) {
        let waiting = continuation.withLock { slot in
            defer { slot = nil }
            return slot
        }
        waiting?.resume(returning: value)
    }
}

/// What one run probes: the planned endpoints and, for each, the slot it fills (a command-line target, then an
/// endpoint-list entry). ``ScanPlanner/batch(targets:entries:settings:resolver:)`` makes it; every command's
/// probe step reads it, so the plan → slot mapping is written once.
public struct ProbeBatch: Sendable {
    /// The endpoints to probe, in plan order.
    public var plan: [PlannedEndpoint] = []
    /// Plan index → slot.
    public var owner: [Int] = []
    /// How many slots there are (targets + entries), planned or not.
    public var slots: Int

    public init(slots: Int) { self.slots = slots }

    /// Profiles in plan order, grouped by slot (a slot that was not planned, `http://`, gets none).
    public func bySlot(_ profiles: [ServerProfile]) -> [[ServerProfile]] {
        var grouped = [[ServerProfile]](repeating: [], count: slots)
        for (index, profile) in profiles.enumerated() { grouped[owner[index]].append(profile) }
        return grouped
    }
}

/// One endpoint to scan, with where it came from.
public struct PlannedEndpoint: Sendable {
    public var target: Target
    public var request: ProbeRequest
    public var source: SourceLocation?

    public init(target: Target, request: ProbeRequest, source: SourceLocation? = nil) {
        self.target = target
        self.request = request
        self.source = source
    }
}

extension ScanSettings {
    /// Nil when `concurrency` endpoints with `perHost` connections each fit in the file descriptors this process may
    /// open (the soft limit is raised to the hard one first); else why the scan cannot run as asked.
    package static func descriptorProblem(concurrency: Int, perHost: Int) -> String? {
        DescriptorLimit.problem(concurrency: concurrency, perHost: perHost)
    }
}
