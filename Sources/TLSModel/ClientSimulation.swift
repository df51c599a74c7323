import Foundation

/// One Apple client's handshake with the endpoint, simulated with that client's own ClientHello (issue 36): what the
/// server negotiates with it, or how it fails. The hellos are profiles of each OS release's URLSession/Network.framework
/// and Safari stack, built byte by byte (docs/clienthello-engine.md), with how certain each profile is.
///
/// Field names are part of the JSON contract (docs/json-output.md); add around them, never rename.
public struct ClientSimulation: Codable, Sendable, Equatable {
    /// How the simulated handshake ended.
    public enum Outcome: String, Codable, Sendable, Equatable {
        /// The server answered with a ServerHello the client accepts (what it negotiated is in the other fields).
        case negotiated
        /// The server refused the client (an alert, or a silent close from a server shown to refuse that way).
        case refused
        /// The connection was reset or closed without an answer, or cut off: the client fails to connect.
        case dropped
        /// No answer before the timeout: the client's connection times out.
        case timedOut = "timed out"
        /// The server chose something the client did not offer, or answered with something that is not TLS.
        case broken
        /// The simulation could not run (the scan was cancelled, the hello could not be built).
        case notRun = "not run"
    }

    /// The client as the report names it: `iOS 26 (URLSession)`, `iOS 17 (Safari)`.
    public var client: String
    /// The profile's id (TLSHello's Apple profiles): `ios26-urlsession`, `ios18`.
    public var profile: String
    /// The OS release the client belongs to, as the OS eras name it: `26`, `17`, `15.4`, `12.2`.
    public var osVersion: String
    /// Whether the profile is an exact capture (`exact`), a field-for-field copy of one (`spec`), or inferred from
    /// sources (`inferred`).
    public var evidence: String
    public var outcome: Outcome
    /// What was negotiated (`negotiated` only).
    @ExplicitNull public var version: TLSVersion?
    @ExplicitNull public var suite: AcceptedCipherSuite?
    @ExplicitNull public var group: AcceptedGroup?
    /// The server's signature scheme (IANA name, `rsa_pss_rsae_sha256`), when it was read: TLS 1.3's
    /// CertificateVerify, or TLS 1.2's ServerKeyExchange; nil when not read (RSA key exchange, a failure).
    public var signatureScheme: String?
    /// Whether the key exchange was post-quantum (a hybrid with ML-KEM): nil when nothing was negotiated.
    @ExplicitNull public var quantumSecure: Bool?
    /// One line: why the client fails (`outcome` not `negotiated`).
    public var failure: String?

    public init(
        client: String, profile: String, osVersion: String, evidence: String, outcome: Outcome,
        version: TLSVersion? = nil, suite: AcceptedCipherSuite? = nil, group: AcceptedGroup? = nil,
        signatureScheme: String? = nil, quantumSecure: Bool? = nil, failure: String? = nil
    ) {
        self.client = client
        self.profile = profile
        self.osVersion = osVersion
        self.evidence = evidence
        self.outcome = outcome
        self.version = version
        self.suite = suite
        self.group = group
        self.signatureScheme = signatureScheme
        self.quantumSecure = quantumSecure
        self.failure = failure
    }

    /// Whether the client connects (at the TLS layer; ATS may still refuse what was negotiated).
    public var connects: Bool { outcome == .negotiated }

    /// The key exchange as the reports name it: the group, or `RSA key exchange (no group)` for a TLS 1.2 suite
    /// without one.
    public var keyExchangeLabel: String {
        if let group { return group.name }
        if suite?.keyExchange == .rsa { return "RSA key exchange (no group)" }
        return "a classical group"
    }
}

/// Whether the server takes a ClientHello that spans more than one TCP segment, as the iOS 26 hello always does
/// (about 1,530 bytes with its X25519MLKEM768 key share; issue 36): the "tldr.fail" family of servers and middleboxes
/// read the first segment once and give up.
public struct HelloSizeTolerance: Codable, Sendable, Equatable {
    /// The iOS 26 hello sent as the stack sends it, in two segments with a pause between them.
    public var split: ClientSimulation.Outcome
    /// A hello that fits one segment (the iOS 18 one), for comparison.
    public var single: ClientSimulation.Outcome
    /// False when the split hello fails where the single one is answered: the server (or something before it) is
    /// intolerant of a multi-segment ClientHello, and every iOS 26 connection fails. Nil when the single one
    /// failed too (nothing to compare).
    @ExplicitNull public var tolerant: Bool?
    /// One line on each failure.
    public var detail: String?

    public init(
        split: ClientSimulation.Outcome, single: ClientSimulation.Outcome, tolerant: Bool?, detail: String? = nil
    ) {
        self.split = split
        self.single = single
        self.tolerant = tolerant
        self.detail = detail
    }
}

extension ServerProfile {
    /// The newest simulated client's post-quantum readiness: whether iOS 26's connection negotiates a post-quantum
    /// hybrid (X25519MLKEM768); nil when iOS 26 was not simulated or did not connect.
    public var quantumSecure: Bool? {
        let newest = (simulations ?? []).filter { $0.osVersion.hasPrefix("26") && $0.connects }
        guard !newest.isEmpty else { return nil }
        return newest.allSatisfy { $0.quantumSecure == true }
    }
}
