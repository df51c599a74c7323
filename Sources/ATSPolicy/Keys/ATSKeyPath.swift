/// Dotted key paths under `NSAppTransportSecurity`, as findings, explanations and baselines spell them
/// (`NSAppTransportSecurity.NSExceptionDomains.example.com.NSIncludesSubdomains`). The one builder:
/// every key path in the JSON contract comes from here.
package enum ATSKeyPath {
    /// `NSAppTransportSecurity.<c1>.<c2>…`; just `NSAppTransportSecurity` for no components.
    package static func path(_ components: [String]) -> String {
        ([ATSKey.appTransportSecurity] + components).joined(separator: ".")
    }

    /// `NSAppTransportSecurity.<key>` for a global key.
    package static func global(_ key: ATSKey) -> String { path([key.name]) }

    /// `NSAppTransportSecurity.NSExceptionDomains.<domain>`, or `….<domain>.<key>` when a key is given.
    package static func exceptionDomain(_ domain: String, _ key: String? = nil) -> String {
        path([ATSKey.exceptionDomains.name, domain] + (key.map { [$0] } ?? []))
    }

    /// The keys of a path under `NSAppTransportSecurity`: `["NSAppTransportSecurity", <c1>, …]`, the form JSON and
    /// SARIF carry beside the dotted one (a domain key with dots cannot be split back out of it).
    package static func components(_ components: [String]) -> [String] { [ATSKey.appTransportSecurity] + components }

    /// The keys of ``exceptionDomain(_:_:)``.
    package static func exceptionDomainComponents(_ domain: String, _ key: String? = nil) -> [String] {
        components([ATSKey.exceptionDomains.name, domain] + (key.map { [$0] } ?? []))
    }
}
