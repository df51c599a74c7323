/// One handshake attempt, recorded apart from what it found (like sslyze's `ScanCommandAttempt`),
/// so a report never calls "not supported" what could not be tested.
public struct ProbeAttempt: Codable, Sendable, Equatable {
    public var version: TLSVersion
    /// How many suites the ClientHello offered.
    public var offered: Int
    public var outcome: Outcome
    /// A one-line description of the outcome.
    public var detail: String?

    public enum Outcome: String, Codable, Sendable, Equatable {
        /// The handshake completed.
        case accepted
        /// The server answered with a TLS alert (or a ServerHello the offer excluded): it speaks TLS and said no.
        case rejected
        /// The server closed the connection without sending anything.
        case closed
        /// No answer before the deadline.
        case timeout
        /// The TCP connection could not be made (or the HTTP proxy did not open the tunnel).
        case unreachable
        /// The peer sent something that is not TLS, or the handshake broke.
        case protocolError
        /// The probe could not run (nothing to offer, a local failure).
        case notRun
    }

    public init(version: TLSVersion, offered: Int, outcome: Outcome, detail: String? = nil) {
        self.version = version
        self.offered = offered
        self.outcome = outcome
        self.detail = detail
    }
}
