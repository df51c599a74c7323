/// Something that turns a request into a profile: the OpenSSL prober, or a fake in tests.
///
/// The seam lives in TLSModel so that another backend, or a test double, never links OpenSSL.
public protocol EndpointProber: Sendable {
    /// Scans one endpoint. Never throws: every failure is a status in the profile.
    ///
    /// When its task is cancelled (Ctrl-C), a prober should stop opening connections and return soon. The batch
    /// keeps a `completed` profile it returns then (steps not run must read as unknown, never as "not supported"),
    /// reports any other status as `cancelled` (the failure is the cancellation's, not the server's), and stops
    /// waiting for a prober that has not returned 2 s after the cancellation.
    func scan(_ request: ProbeRequest) async -> ServerProfile
}

/// Something that looks up the addresses of a name (planning `--all-addresses`).
public protocol AddressResolver: Sendable {
    /// The numeric addresses of `host` for TCP on `port`, in the resolver's order, without duplicates.
    ///
    /// - Parameter timeout: seconds to wait at most; a lookup still running then fails with `.unreachable`.
    /// - Throws: ``ProbeFailure`` (`.unreachable`) when the name cannot be resolved in time.
    func addresses(of host: String, port: Int, timeout: Double) async throws -> [String]
}
