/// How a test server takes its connections (issue 20): the servers a scan must neither deadlock nor misjudge.
package enum ConnectionPolicy: Sendable, Hashable {
    /// A thread per connection, any number at once: today's test servers, nginx.
    case concurrent
    /// One connection at a time: accept, serve that connection to its end, then accept the next, exactly as
    /// `openssl s_server` does (and Python's `HTTPServer`, many embedded devices). A connection that sends
    /// nothing holds the server until the client closes it or ``TLSServerConfiguration/handshakeTimeout`` passes.
    case oneAtATime
    /// At most `limit` connections at once (per client address: on loopback every client is one address);
    /// each further connection is accepted and then handled as `excess` says, as a WAF or a per-client cap does.
    case capped(Int, excess: Excess)

    /// What a capped server does with a connection beyond its cap.
    package enum Excess: Sendable, Hashable, CaseIterable {
        /// Closes it at once (a FIN, no byte sent).
        case close
        /// Resets it at once (an RST).
        case reset
        /// Keeps it open and never answers, until the client closes it.
        case ignore
    }
}
