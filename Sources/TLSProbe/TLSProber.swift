import CertificateTrust
import Foundation
import TLSModel

/// Probes endpoints through the system OpenSSL: every TLS version and cipher suite each accepts,
/// the key-exchange groups, server order, and the certificate chain with its verification.
///
/// Every blocking step (a resolution, a connect and handshake, reading CA files, verifying a chain)
/// is one job on the prober's bounded pool of probe threads; the orchestration around them is async.
///
/// > Warning: Connects to the network. Blocking socket and OpenSSL work runs on the prober's own
/// > threads, never on Swift's cooperative pool.
package struct TLSProber: EndpointProber, AddressResolver {
    private let limiter: HostLimiter
    let pool: ProbeThreadPool
    private let trustStores: TrustStores
    private let retry: RetryPolicy
    private let pacer: ConnectionPacer
    private let preconnect: Bool
    /// Where issuers missing from a served chain are fetched from (AIA caIssuers, once per URL per run), or not
    /// (`--no-fetch`).
    let issuers: IssuerFetcher
    /// Connections opened ahead that a step of this prober took (every endpoint; read by tests).
    let preconnectsTaken = PreconnectedSockets.Counter()
    /// Which Apple clients a scan simulates beside the enumeration, per scope (``ClientSimulator``; issue 36); nil:
    /// none, and ``ServerProfile/simulations`` stays absent.
    let simulatedClients: SimulatedClients?
    /// Whether a full scan checks that the server takes a ClientHello in two TCP segments (``HelloSizeProbe``).
    let checksHelloSize: Bool

    /// - Parameters:
    ///   - perHostLimit: how many connections may be open to one connect address (IP and port) at once:
    ///     handshakes in flight and connections opened ahead of one (``PreconnectedSockets``).
    ///   - retry: when a handshake the server dropped (closed, reset, cut off, timed out) is tried again.
    ///   - connectionDelay: the least time, in seconds, between two connection starts to one connect address
    ///     (`--delay`), retries included; 0: none (``ConnectionPacer``).
    ///   - preconnect: whether full enumeration opens each step's connection while the step before it is in
    ///     flight, so a step costs one round trip instead of two (``PreconnectedSockets``; `--no-preconnect`).
    ///   - issuers: where a missing issuer is fetched from (``IssuerFetcher``; default: off).
    ///   - simulatedClients: the Apple clients a scan also connects once each with, with that client's own
    ///     ClientHello (``ClientSimulator``), filling ``ServerProfile/simulations``: ``SimulatedClients/everyEra``
    ///     (the CLI's), whose ats-only scan records the newest client as not simulated, or
    ///     ``SimulatedClients/everyEraAndNewestInATSOnly`` (`--require-pq`). nil by default, so that a test counting
    ///     connections counts the enumeration's alone.
    ///   - checksHelloSize: whether a full scan also sends iOS 26's ClientHello in two segments (``HelloSizeProbe``;
    ///     two connections; off with `--no-simulation`).
    package init(
        perHostLimit: Int = 16, retry: RetryPolicy = .standard, connectionDelay: Double = 0,
        preconnect: Bool = true, issuers: IssuerFetcher = .disabled, simulatedClients: SimulatedClients? = nil,
        checksHelloSize: Bool = true
    ) {
        self.simulatedClients = simulatedClients
        self.checksHelloSize = checksHelloSize
        self.issuers = issuers
        self.preconnect = preconnect
        self.retry = retry
        self.pacer = ConnectionPacer(interval: connectionDelay)
        self.limiter = HostLimiter(limit: perHostLimit)
        self.pool = ProbeThreadPool(size: Self.probeThreads)
        self.trustStores = TrustStores(pool: pool, executor: EventLoopGroup.shared.next())
    }

    /// The threads of a prober's pool for blocking work that is not a socket wait: name resolution (`getaddrinfo`
    /// has no timeout of its own), reading CA files, building trust stores, verifying chains, fetching issuers.
    /// Handshakes run on the ``EventLoopGroup``'s loops, one per core, whatever `--concurrency` is: a scan's
    /// threads are these, the loops and the runtime's (issue 34). One per core, and two more so that a slow name
    /// lookup does not hold back every chain verification.
    package static let probeThreads = ProcessInfo.processInfo.activeProcessorCount + 2

    /// The size of this prober's pool of probe threads.
    package var probeThreadLimit: Int { pool.size }

    /// Scans one endpoint: lead probe, every version's suites, server order, the certificate chain.
    /// Never throws: every failure is a status in the profile.
    ///
    /// > Warning: Connects to the endpoint; takes up to the request's deadline (from the first connection).
    package func scan(_ request: ProbeRequest) async -> ServerProfile {
        await withTaskExecutorPreference(EventLoopGroup.shared.next()) { await orchestrate(request) }
    }

    /// The scan of one endpoint, on one event loop; each blocking step that is not a socket wait awaits a pool job.
    private func orchestrate(_ request: ProbeRequest) async -> ServerProfile {
        let started = Date()
        let clock = DispatchTime.now()
        var profile = ServerProfile(
            target: request.target.hostPort, host: request.target.host, port: request.target.port,
            address: nil, sni: request.effectiveSNI, status: .completed, scannedAt: started,
            probeLibrary: linkedOpenSSLVersion)
        profile.proxy = request.proxy?.redacted

        // The trust store is loaded (once per run, shared) while the handshakes are in flight: it is first needed
        // for the certificate report, and loading the system store takes tens of milliseconds of CPU.
        async let loadedTrust = trustStores.store(
            caFiles: request.caFiles, source: request.trustSource, useSystemStore: request.useSystemTrustStore)
        let addresses: [SocketAddress]
        do {
            // Name resolution has no timeout of its own: bound it by the per-connection timeout. Through a proxy
            // only the proxy's name is looked up here: the proxy resolves the server's (``ProxyTunnel``).
            if let proxy = request.proxy {
                addresses = try await resolve(
                    proxy.host, port: proxy.port, within: Deadline.after(seconds: request.timeout))
            } else {
                addresses = try await resolve(
                    request.connectAddress ?? request.target.host, port: request.target.port,
                    within: Deadline.after(seconds: request.timeout))
            }
        } catch {
            // A trust store that cannot be loaded is the first reason given, as when it was loaded first.
            if case .failure(let failure) = await loadedTrust {
                return failed(profile, failure, request: request, clock: clock)
            }
            var failure = error as? ProbeFailure ?? ProbeFailure(.local, "\(error)")
            if let proxy = request.proxy {
                // The server was never tried: an error of the scan's set-up, not an unreachable endpoint.
                failure = ProbeFailure(.local, "proxy \(proxy.hostPort): \(failure.reason)")
            }
            return failed(profile, failure, request: request, clock: clock)
        }

        let session = EndpointSession(
            request: request, addresses: addresses, pool: pool, limiter: limiter, retry: retry,
            pacer: pacer, preconnect: preconnect, preconnectsTaken: preconnectsTaken)
        defer { session.stopWatching() }  // the watchdog over connections opened ahead (issue 20)
        let versions = request.versions.sorted()
        guard let lowest = versions.first, let highest = versions.last else { return profile }

        // Lead probe: a normal ClientHello offering every version. The server answers with its
        // highest version, which (a) proves every higher version unsupported and (b) is the first
        // step of that version's enumeration, since the offered suites are the same: no extra cost.
        let leadKey = session.limitKey
        let (lead, leadTime) = await limiter.withPermit(leadKey) { () -> (HandshakeResult, Double) in
            // No connection is opened ahead of the lead's answer (issue 34): until an answer has shown the server
            // serving two connections at once, one left idle may be the one a server that serves one at a time
            // takes first (a proxy or a load balancer in front of it can reorder connections opened a moment
            // apart), and the lead would wait out the stall time behind it (``EndpointSession/watch()``).
            let prepared = await pool.run { () -> (ClientContext, [OfferedSuite])? in
                // The lead's chain is the one reported (when it is accepted): it alone asks for SCTs.
                guard let context = try? ClientContext(minVersion: lowest, maxVersion: highest, requestSCTs: true)
                else { return nil }
                return (context, context.offerableLegacySuites())
            }
            guard let (context, legacy) = prepared else {
                return (
                    HandshakeResult(outcome: .notRun("could not configure OpenSSL"), address: nil, connected: false), 0
                )
            }
            let started = DispatchTime.now()
            let result = await session.step(
                context: context, version: highest, legacy: legacy,
                tls13: highest >= .tls1_3 ? ClientContext.allTLS13Suites : [], permit: leadKey)
            return (result, Self.seconds(since: started))
        }

        var results: [TLSVersion: VersionEnumerator.Outcome] = [:]
        var toProbe = versions
        var seed: (TLSVersion, HandshakeResult.Accepted)?
        switch lead.outcome {
        case .answered(let a) where versions.contains(a.version):
            seed = (a.version, a)
            for v in versions where v > a.version {
                results[v] = .init(
                    result: ProtocolResult(
                        version: v, supported: false,
                        reason: "server chose \(a.version) when offered up to \(highest)"), firstAccepted: nil,
                    failure: nil)
            }
            toProbe = versions.filter { $0 <= a.version }
        case .unreachable(let why):
            return finish(profile, session: session, status: .unreachable, error: why, versions: versions, clock: clock)
        case .silent(let silence):
            // A peer that accepts and never answers: stop here rather than wait once per version.
            return finish(
                profile, session: session, status: .timeout, error: "no TLS answer: \(silence.reason)",
                versions: versions, clock: clock)
        case .notTLS(let peer):
            return finish(
                profile, session: session, status: .error, error: peer.description, versions: versions, clock: clock)
        case .proxyFailed(let why, _):
            // The proxy refused (after retries, for a 502/503/504) or cannot be reached: the server was never
            // reached, so nothing is known of any version, and every other step would be refused the same way.
            return finish(profile, session: session, status: .error, error: why, versions: versions, clock: clock)
        case .dropped(let drop) where drop.everyAttemptSilent:
            session.noteClosesEverything()  // probe every version on its own, with fewer retries
        case .answered, .refused, .dropped, .broken, .notRun:
            break  // another version, a refusal, a drop, or an odd failure: probe every version on its own
        }

        // Apple's clients, each with its own ClientHello, beside the enumeration and within the same per-host cap.
        let clients = simulatedClients?.clients(for: request.scope) ?? []
        async let simulated = ClientSimulator(session: session).run(clients)
        // The two-segment ClientHello check runs beside the enumeration once the lead was answered (its own
        // connections, within the per-host cap): after it, it was the scan's last quarter second behind 50 ms.
        let leadAnswered = lead.accepted != nil
        let checksHelloSize = self.checksHelloSize
        async let sizeBeside = checksHelloSize && leadAnswered ? HelloSizeProbe.run(for: session, beside: true) : nil
        // Full scope: every remaining version's handshakes on one work queue within the per-host cap.
        let collected =
            request.scope == .atsOnly
            ? await ATSOnlyProbe(session: session).run(versions: versions, lead: seed?.1)
            : await EnumerationQueue(session: session, openAhead: leadTime >= Self.openAheadLeadTime).run(
                versions: toProbe, seed: seed?.1, spent: seed == nil ? 1 : 0, ruledOut: versions.count - toProbe.count)
        for (version, outcome) in collected { results[version] = outcome }
        if request.scope == .atsOnly { profile.scope = ProbeScope.atsOnly.rawValue }
        let simulations = await simulated
        if let simulatedClients { profile.simulations = simulatedClients.recorded(simulations, scope: request.scope) }

        profile.protocols = versions.compactMap { results[$0]?.result }
        let status = Self.status(results: versions.compactMap { results[$0] })
        profile.status = status.0
        profile.error = status.1

        // Certificates come from handshakes already made: the highest supported version's first.
        // A version supported only through a ClientHello of our own has no chain when it is TLS 1.3 (encrypted).
        let accepted = versions.reversed().compactMap { results[$0]?.firstAccepted }
        // A version answered only after the lead was refused: the check runs now, beside the chain's work.
        async let sizeAfter =
            checksHelloSize && !leadAnswered && !accepted.isEmpty
            ? HelloSizeProbe.run(for: session, beside: false) : nil
        // The trust store is first needed here: it loads (once per run) while the enumeration runs.
        let trust: TrustStoreSet
        switch await loadedTrust {
        case .success(let store): trust = store
        case .failure(let failure):
            return finish(
                profile, session: session, status: Self.status(of: failure), error: failure.reason,
                versions: request.versions, clock: clock)
        }
        if let source = accepted.first(where: { !$0.chainDER.isEmpty }) ?? accepted.first {
            // A chain that stops short of an anchor is completed from its caIssuers URLs first, as trustd does.
            let issued = await completeIssuers(source.chainDER, trust: trust, now: request.now ?? Date())
            profile.certificate = await pool.run {
                Self.certificateReport(
                    source, request: request, trust: trust, issuers: issued.extra, issuerFetches: issued.records)
            }
        }
        let (beside, after) = await (sizeBeside, sizeAfter)  // at most one of them ran
        let sizeTested = beside ?? after
        var scanned = finish(
            profile, session: session, status: profile.status, error: profile.error, versions: nil, clock: clock)
        sizeTested?.record(in: &scanned)
        return scanned
    }

    /// Endpoint status from the per-version outcomes: any TLS answer means `completed`.
    static func status(results: [VersionEnumerator.Outcome]) -> (ScanStatus, String?) {
        // Complete: a handshake succeeded, or the server refused every version outright. A server
        // that refused some versions but broke every other handshake could not be scanned.
        let anyAccepted = results.contains { $0.result.supported == true }
        let allRefused = !results.isEmpty && results.allSatisfy { $0.result.supported == false }
        if anyAccepted || allRefused {
            let unknown = results.filter { $0.result.supported == nil }
            if unknown.isEmpty { return (.completed, nil) }
            let names = unknown.map(\.result.version.name).joined(separator: ", ")
            return (
                .completed, "could not tell whether \(names) is supported: \(unknown[0].result.reason ?? "unknown")"
            )
        }
        let failures = results.filter { $0.result.supported == nil }.compactMap(\.failure)
        if !failures.isEmpty, failures.allSatisfy({ if case .silent = $0 { return true } else { return false } }) {
            return (.timeout, "no TLS answer: \(failures[0].detail)")
        }
        if !failures.isEmpty, failures.allSatisfy({ if case .dropped = $0 { return true } else { return false } }) {
            return (.error, "server closed every connection without a TLS answer")
        }
        // A broken handshake (or a peer that is not TLS) says more than a drop or a refusal beside it.
        let reason =
            failures.first(where: {
                switch $0 {
                case .broken, .notTLS: return true
                default: return false
                }
            })?.detail
            ?? failures.first?.detail ?? "no handshake completed"
        return (.error, reason)
    }

    /// The shortest lead handshake after which the enumeration opens connections ahead of its steps: a step's
    /// connection opened ahead saves one round trip, nothing on loopback or a LAN, where the connections opened
    /// for steps that never come are pure cost (and a batch of loopback endpoints is CPU-bound). The lead costs
    /// two round trips, so this is a round trip of about 10 ms.
    static let openAheadLeadTime = 0.020

    /// The status of an endpoint that could not be scanned for `failure`: unreachable, or an error.
    private static func status(of failure: ProbeFailure) -> ScanStatus {
        failure.kind == .unreachable ? .unreachable : .error
    }

    /// The profile of an endpoint that failed before any connection: every version unknown, for `failure`'s reason.
    private func failed(_ profile: ServerProfile, _ failure: ProbeFailure, request: ProbeRequest, clock: DispatchTime)
        -> ServerProfile
    {
        var profile = profile
        profile.status = Self.status(of: failure)
        profile.error = failure.reason
        profile.protocols = request.versions.map {
            ProtocolResult(version: $0, supported: nil, reason: failure.reason, enumerationComplete: false)
        }
        profile.durationSeconds = Self.seconds(since: clock)
        return profile
    }

    private func finish(
        _ profile: ServerProfile, session: EndpointSession, status: ScanStatus, error: String?, versions: [TLSVersion]?,
        clock: DispatchTime
    ) -> ServerProfile {
        var profile = profile
        profile.status = status
        profile.error = error
        if let versions {
            profile.protocols = versions.map {
                ProtocolResult(version: $0, supported: nil, reason: error, enumerationComplete: false)
            }
        }
        session.closePreconnected()
        profile.handshakes = session.handshakes
        let unused = session.unusedConnections
        profile.unusedConnections = unused > 0 ? unused : nil
        profile.retries = session.retries
        profile.refusalProbes = session.refusalProbes
        profile.drops = session.drops
        profile.serverConnections = session.limitedTo
        // Through a proxy, the connections went to the proxy: the server's address is the one it was asked for, if any.
        profile.address =
            session.request.proxy != nil
            ? session.request.connectAddress
            : session.connectedAddress?.ip ?? session.connectAddresses.first?.ip
        profile.durationSeconds = Self.seconds(since: clock)
        return profile
    }

    /// The certificate report of the chain `accepted` was served, judged against `trust` (``TrustStoreSet``): a
    /// certificate that does not parse is reported with its position and the parser's reason, never dropped.
    static func certificateReport(
        _ accepted: HandshakeResult.Accepted, request: ProbeRequest, trust: TrustStoreSet, issuers: [[UInt8]] = [],
        issuerFetches: [IssuerFetch]? = nil
    ) -> CertificateReport {
        trust.report(
            served: accepted.chainDER, delivered: accepted.scts, ocspStapled: accepted.ocspStapled,
            stapledOCSP: accepted.ocspResponse, host: request.target.host, logList: request.ctLogList,
            now: request.now ?? Date(), fetched: issuers, issuerFetches: issuerFetches)
    }

    /// The numeric addresses of `host` (``AddressResolver``), looked up on a probe thread within `timeout` seconds.
    package func addresses(of host: String, port: Int, timeout: Double) async throws -> [String] {
        try await resolve(host, port: port, within: Deadline.after(seconds: timeout)).map(\.ip)
    }

    /// Resolves on a probe thread and waits at most until `deadline`: `getaddrinfo` has no timeout
    /// of its own, and a stuck resolver must not hold the endpoint past its deadline.
    func resolve(_ host: String, port: Int, within deadline: Deadline) async throws -> [SocketAddress] {
        // A numeric address needs no DNS: `getaddrinfo` answers at once, no thread needed.
        if IPAddress(host) != nil { return try SocketAddress.resolve(host, port: port) }
        let answer = await pool.run(until: deadline) { () -> Result<[SocketAddress], ProbeFailure> in
            do { return .success(try SocketAddress.resolve(host, port: port)) } catch {
                return .failure(
                    error as? ProbeFailure ?? ProbeFailure(.unreachable, "cannot resolve \(host): \(error)"))
            }
        }
        guard let answer else { throw ProbeFailure(.unreachable, "resolving \(host) timed out") }
        return try answer.get()
    }

    private static func seconds(since start: DispatchTime) -> Double {
        Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
    }
}

extension TLSProber {
    /// The OpenSSL names of every suite the prober offers for `version`, in the order it offers them
    /// (a server that follows the client's order chooses in this order). Nil when OpenSSL cannot be set up.
    package static func offerOrder(_ version: TLSVersion) -> [String]? {
        if version == .tls1_3 { return ClientContext.allTLS13Suites.map(\.ianaName) }
        return (try? ClientContext(minVersion: version, maxVersion: version))?.offerableLegacySuites().map(
            \.openSSLName)
    }
}
