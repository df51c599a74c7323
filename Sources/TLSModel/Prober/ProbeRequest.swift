import Foundation

/// What to probe and how.
public struct ProbeRequest: Sendable, Hashable {
    /// The endpoint as the app would name it: host and port drive SNI and hostname checks.
    public var target: Target
    /// Connect to this address instead of resolving the host (curl's `--resolve`, the HTTPDNS case).
    public var connectAddress: String?
    /// The SNI to send; nil means the target host (none for IP literals).
    public var sni: String?
    /// Per-connection timeout, seconds.
    public var timeout: Double
    /// Overall deadline for the endpoint, seconds.
    public var deadline: Double
    /// PEM files with extra trust anchors (user/MDM-installed roots in Apple's terms).
    public var caFiles: [String]
    /// Verify at this time instead of now (tests, re-judging).
    public var now: Date?
    /// Versions to probe.
    public var versions: [TLSVersion]
    /// Whether to load the system trust store (false: only `caFiles` anchors, whatever ``trustSource`` says).
    public var useSystemTrustStore: Bool
    /// Which roots stand in for the OS's preinstalled ones: Apple's stores per OS release, this machine's, a PEM file.
    public var trustSource: TrustStoreSource = .host
    /// The CT log list that SCTs are checked against; nil: SCTs are read but no log is known.
    public var ctLogList: CTLogList?
    /// How much to probe: every suite of every version, or only what the ATS verdict reads.
    public var scope: ProbeScope = .full
    /// The HTTP proxy every connection is tunnelled through with `CONNECT` (nil: connect directly). Through a
    /// proxy the name is resolved by the proxy: it is sent `CONNECT host:port`, or `CONNECT address:port` with
    /// ``connectAddress``.
    public var proxy: HTTPProxy?

    public init(
        target: Target, connectAddress: String? = nil, sni: String? = nil, timeout: Double = 5, deadline: Double = 60,
        caFiles: [String] = [], now: Date? = nil, versions: [TLSVersion] = TLSVersion.probed,
        useSystemTrustStore: Bool = true
    ) {
        self.target = target
        self.connectAddress = connectAddress
        self.sni = sni
        self.timeout = timeout
        self.deadline = deadline
        self.caFiles = caFiles
        self.now = now
        self.versions = versions
        self.useSystemTrustStore = useSystemTrustStore
    }

    /// What a proxy is asked to connect to: ``connectAddress`` or the host, and the port (`[v6]:port`).
    public var tunnelAuthority: String {
        let host = connectAddress ?? target.host
        return host.contains(":") ? "[\(host)]:\(target.port)" : "\(host):\(target.port)"
    }

    /// The SNI that will be sent: the explicit one, else the host unless it is an IP literal.
    public var effectiveSNI: String? {
        if let sni { return sni }
        return target.isIPLiteral ? nil : target.host
    }
}

/// How much of an endpoint a scan probes.
public enum ProbeScope: String, Sendable, Hashable, Codable {
    /// Every version and every suite the linked OpenSSL can offer (docs/architecture.md#the-probe).
    case full
    /// The ATS verdict only: at most 6 handshakes (lead, TLS 1.2 forward-secret ATS suites, TLS 1.2 RSA
    /// key-exchange suites, TLS 1.3, TLS 1.1, TLS 1.0); suite lists are not enumerated.
    case atsOnly = "ats-only"
}
