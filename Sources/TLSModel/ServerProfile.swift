import Foundation

/// What one endpoint does, as one scan saw it: a Codable snapshot that can be saved
/// (`--save-profile`) and judged again later without connecting.
///
/// Field names are part of the JSON contract (docs/json-output.md); add around them, never rename.
public struct ServerProfile: Codable, Sendable, Equatable {
    /// The target as the user wrote it, normalised to `host:port`.
    public var target: String
    /// The host name (or IP literal) the app would use: it drives SNI, hostname checks and ATS lookups.
    public var host: String
    public var port: Int
    /// The address actually connected to (nil when the name did not resolve; through a proxy, the `--resolve`
    /// address sent to it, else nil: the proxy resolved the name).
    @ExplicitNull public var address: String?
    /// The SNI sent (nil when none was sent, as for IP literals).
    @ExplicitNull public var sni: String?
    public var status: ScanStatus
    /// A one-line reason when `status` is not `completed`, or a note on a partial scan.
    @ExplicitNull public var error: String?
    /// How many TCP connections (handshake attempts) the scan of this endpoint cost.
    public var handshakes: Int
    /// How many of those connections were retries of a step whose earlier connection the server dropped.
    @ZeroWhenAbsent public var retries: Int
    /// How many connections ended without a TLS answer: closed (FIN), reset (RST), cut off mid-handshake
    /// or timed out. A drop is never taken as "not supported"; the step is retried.
    @ZeroWhenAbsent public var drops: Int
    /// Connections that asked how the server refuses, after a step was closed without an answer: a ClientHello no
    /// server accepts beside one this server answered (issue 35). Counted in `handshakes`, and in `drops` when
    /// dropped; not in `retries`. Absent when none.
    @ZeroWhenAbsent public var refusalProbes: Int
    /// TCP connections opened ahead of a handshake (to hide the connect round trip) and closed without
    /// one, not counted in `handshakes`; absent when none (`--no-preconnect`, or every one was used).
    public var unusedConnections: Int?
    /// How many connections at once the server showed it serves, when that held the scan back (issue 20):
    /// 1 for a server that serves one connection at a time (`openssl s_server`: it did not answer a connection
    /// while another was open), N for one that dropped connections beyond N. Absent when no limit was seen.
    public var serverConnections: Int?
    /// One entry per probed version, TLSv1.0 first.
    public var protocols: [ProtocolResult]
    /// The certificate chain and its verification, or nil when no handshake completed.
    @ExplicitNull public var certificate: CertificateReport?
    /// When the scan started.
    public var scannedAt: Date
    /// Wall time of the scan, in seconds.
    public var durationSeconds: Double
    /// The OpenSSL that probed, e.g. `OpenSSL 3.0.19 27 Jan 2026`.
    public var probeLibrary: String?
    /// `http` for a cleartext endpoint (judged without a scan); nil means `https`.
    public var scheme: String?
    /// `ats-only` when the scan probed only what the ATS verdict reads; nil (or `full`) for a full scan.
    public var scope: String?
    /// Each Apple client simulated with its own ClientHello (issue 36), newest first; nil (omitted) when none was
    /// (an ats-only scan that skipped them, a profile saved before the field).
    public var simulations: [ClientSimulation]?
    /// Whether the server takes a ClientHello spanning two TCP segments, as iOS 26's does (issue 36); nil
    /// (omitted) when not tested.
    public var helloSizeTolerance: HelloSizeTolerance?
    /// The HTTP proxy the connections were tunnelled through, as `http://host:port` (never with credentials);
    /// nil (omitted): connected directly.
    public var proxy: String?

    public init(
        target: String, host: String, port: Int, address: String? = nil, sni: String? = nil,
        status: ScanStatus, error: String? = nil, handshakes: Int = 0, protocols: [ProtocolResult] = [],
        certificate: CertificateReport? = nil, scannedAt: Date = Date(), durationSeconds: Double = 0,
        probeLibrary: String? = nil, scheme: String? = nil, retries: Int = 0, drops: Int = 0
    ) {
        self.target = target
        self.host = host
        self.port = port
        self.address = address
        self.sni = sni
        self.status = status
        self.error = error
        self.handshakes = handshakes
        self.retries = retries
        self.drops = drops
        self.refusalProbes = 0
        self.protocols = protocols
        self.certificate = certificate
        self.scannedAt = scannedAt
        self.durationSeconds = durationSeconds
        self.probeLibrary = probeLibrary
        self.scheme = scheme
    }

    /// Every TCP connection the scan opened: its handshakes and the connections opened ahead of one and not used.
    public var connections: Int { handshakes + (unusedConnections ?? 0) }

    /// The URL scheme the endpoint is judged with.
    public var effectiveScheme: String { scheme ?? "https" }

    /// The result for one version, if it was probed.
    public func result(for version: TLSVersion) -> ProtocolResult? {
        protocols.first { $0.version == version }
    }

    /// Versions known to be supported, oldest first.
    public var supportedVersions: [TLSVersion] {
        protocols.filter { $0.supported == true }.map(\.version).sorted()
    }

    /// The highest version known to be supported.
    public var highestSupportedVersion: TLSVersion? { supportedVersions.last }
}

/// How the scan of an endpoint ended.
public enum ScanStatus: String, Codable, Sendable, Equatable {
    /// Every probe that was planned ran (individual versions may still be `supported: null`).
    case completed
    /// No TCP connection could be made (refused, no route, name did not resolve).
    case unreachable
    /// Connections were made but the peer never answered in time.
    case timeout
    /// The peer answered but not with TLS we could complete (plain HTTP, garbage, closed at once).
    case error
    /// The run was interrupted (Ctrl-C, SIGTERM) before this endpoint's scan finished: it was never started, or it
    /// was abandoned at the grace deadline. Nothing was learnt about the server; the report is partial.
    case cancelled
}

/// What one protocol version does.
public struct ProtocolResult: Codable, Sendable, Equatable {
    public var version: TLSVersion
    /// true / false, or nil when the probe could not tell (see `reason`).
    @ExplicitNull public var supported: Bool?
    /// Why `supported` is false or nil: the alert or failure the probe saw.
    public var reason: String?
    /// Whether the server picks suites by its own order; nil if fewer than two suites or unknown.
    @ExplicitNull public var serverPreference: Bool?
    /// Accepted suites: in the offer's order for a server that follows the client's; for one with its own
    /// order, its first choice, then the rest in its order, or in the offer's order when
    /// `serverOrderComplete` is false.
    public var cipherSuites: [AcceptedCipherSuite]
    /// False when the server has its own order but the enumeration ran in parallel chains, which know that
    /// order only within each chain: `cipherSuites` holds its first choice, then the rest in the offer's
    /// order. Nil (omitted) otherwise: the order is the server's, or the client's when it follows the client.
    public var serverOrderComplete: Bool?
    /// Whether the server, which has its own order, puts ChaCha20-Poly1305 first for a client whose first suite is
    /// ChaCha20 (OpenSSL's `SSL_OP_PRIORITIZE_CHACHA`, Go's crypto/tls): true when an offer led by its ChaCha20 suite
    /// got that suite instead of its first choice, false when it got the first choice. Nil (omitted) when not asked:
    /// the server follows the client, accepts no ChaCha20 suite, or picks one first anyway.
    public var chachaPrioritized: Bool?
    /// False when enumeration stopped early (a step never answered, even after retries), so the list may
    /// be incomplete.
    public var enumerationComplete: Bool
    /// Suites offered for this version in a handshake the server refused (an ats-only scan): known not
    /// accepted even though `enumerationComplete` is false. Nil for a full scan.
    public var refusedSuites: [CipherSuite]?
    /// Codepoints of atscheck's offer catalogue that were not tested for this version (the ClientHello of its own
    /// that offered them never got an answer), so ``cipherSuites`` says nothing of them: accepted or not is unknown. Nil (omitted) when every
    /// catalogue codepoint was tested.
    ///
    /// When non-empty, ``enumerationComplete`` is false: the list is complete only for what was tested.
    public var untestedSuites: [CipherSuite]?
    /// The key-exchange groups the server accepted for this version, in atscheck's order (post-quantum hybrids,
    /// the classic curves, ffdhe, brainpool): which one the server prefers is not claimed. Nil (omitted) when groups were not enumerated: an ats-only scan, or a version
    /// the server does not support.
    public var groups: [AcceptedGroup]?
    /// False when a step of the group enumeration never answered (even after retries), so ``groups`` may be
    /// incomplete. Nil (omitted) when the enumeration finished, or when groups were not enumerated.
    public var groupsComplete: Bool?

    public init(
        version: TLSVersion, supported: Bool?, reason: String? = nil, serverPreference: Bool? = nil,
        cipherSuites: [AcceptedCipherSuite] = [], enumerationComplete: Bool = true
    ) {
        self.version = version
        self.supported = supported
        self.reason = reason
        self.serverPreference = serverPreference
        self.cipherSuites = cipherSuites
        self.enumerationComplete = enumerationComplete
    }

    public var suites: [CipherSuite] { cipherSuites.map(\.suite) }

    /// The accepted groups as values (from their codes); empty when groups were not enumerated.
    public var namedGroups: [NamedGroup] { (groups ?? []).map(\.group) }
}

/// A cipher suite the server accepted for one version, with what was negotiated alongside it.
public struct AcceptedCipherSuite: Codable, Sendable, Equatable {
    /// IANA name.
    public var name: String
    /// Code point as `0xC02F`.
    public var code: String
    /// OpenSSL's name for the suite.
    public var openSSLName: String
    public var keyExchange: KeyExchange
    public var authentication: SuiteAuthentication
    public var forwardSecrecy: Bool
    /// The key-exchange group negotiated with this suite: `X25519`, `P-256`, `DH-2048`, or nil (RSA key exchange).
    public var group: String?
    /// Size in bits of the ephemeral key (256 for X25519, 2048 for DH-2048), when known.
    public var groupBits: Int?

    public init(
        suite: CipherSuite, openSSLName: String? = nil, group: String? = nil, groupBits: Int? = nil
    ) {
        let info = suite.info
        self.name = info?.ianaName ?? suite.hexCode
        self.code = suite.hexCode
        self.openSSLName = openSSLName ?? info?.openSSLName ?? suite.hexCode
        self.keyExchange = info?.keyExchange ?? .none
        self.authentication = info?.authentication ?? .none
        self.forwardSecrecy = info?.forwardSecrecy ?? false
        self.group = group
        self.groupBits = groupBits
    }

    /// The suite as a value (from `code`).
    public var suite: CipherSuite { CipherSuite(text: code) ?? CipherSuite(0) }
}

extension ServerProfile {
    /// A chain judged from a file (`atscheck cert`, scope `certificate`): no handshake was made, so only the
    /// certificate was judged.
    public var judgesCertificateOnly: Bool { scope == "certificate" }
}
