import TLSModel

/// Exception entries every app has (Security `SecProtocolConfiguration.m`, docs/apple-rules.md §4.3): Apple's own
/// services. The app's own entry with the same key replaces one of them.
package enum BuiltInExceptions {
    /// The built-in entries, by domain key; all include subdomains and allow cleartext HTTP.
    package static let entries: [String: ExceptionDomain] = {
        func entry(_ minimum: TLSVersion) -> ExceptionDomain {
            ExceptionDomain(
                includesSubdomains: true, allowsInsecureHTTPLoads: true, minimumTLSVersion: minimum,
                requiresForwardSecrecy: false)
        }
        return [
            "apple.com": entry(.tls1_2), "setup.icloud.com": entry(.tls1_2),
            "ls.apple.com": entry(.tls1_0), "gs.apple.com": entry(.tls1_0), "geo.apple.com": entry(.tls1_0),
            "is.autonavi.com": entry(.tls1_0), "apple-mapkit.com": entry(.tls1_0),
        ]
    }()
}
