/// Why a probe step failed, with the class of failure the report needs.
public struct ProbeFailure: Error, Sendable, CustomStringConvertible {
    /// The class of failure: what the endpoint status becomes.
    public enum Kind: Sendable {
        case unreachable, timeout, closed, protocolError, local
        /// The scan was cancelled (Ctrl-C) before the step ended: nothing is known from it.
        case cancelled
    }
    /// The class of failure.
    public var kind: Kind
    /// One line a person can act on.
    public var reason: String
    /// A failure of `kind`, with a reason a person can act on.
    public init(_ kind: Kind, _ reason: String) {
        self.kind = kind
        self.reason = reason
    }
    public var description: String { reason }
}
