import Foundation
import TLSModel

/// Which HTTP proxy a run's connections go through, and which endpoints bypass it (`--proxy`, `--no-proxy`,
/// `HTTPS_PROXY`, `NO_PROXY`; docs/usage.md "Proxy").
///
/// Precedence: `--proxy URL` wins over `https_proxy` / `HTTPS_PROXY`; `--no-proxy` ignores the environment (the
/// two together are a usage error). `no_proxy` / `NO_PROXY` applies to the proxy of either source, as curl
/// applies it to `-x`. An environment proxy is never used for `localhost` or a loopback address (the target's,
/// or its `--resolve` address), as Go's `net/http` does: a proxy's loopback is not this machine's. `--proxy` is
/// used for them too.
public struct ProxySettings: Sendable, Hashable {
    /// The proxy.
    public var proxy: HTTPProxy
    /// The hosts reached directly.
    public var bypass: NoProxyList
    /// Where the proxy came from: `--proxy`, or the environment variable's name.
    public var source: String
    /// Whether loopback targets go direct (an environment proxy).
    public var bypassesLoopback: Bool

    public init(proxy: HTTPProxy, bypass: NoProxyList = NoProxyList(), source: String, bypassesLoopback: Bool) {
        self.proxy = proxy
        self.bypass = bypass
        self.source = source
        self.bypassesLoopback = bypassesLoopback
    }

    /// The proxy to use for `target` (nil: connect directly).
    /// - Parameter connectAddress: the address `--resolve` (or an endpoint list) gives the target.
    public func proxy(for target: Target, connectAddress: String?) -> HTTPProxy? {
        if bypass.matches(host: target.host, port: target.port) { return nil }
        if bypassesLoopback {
            if target.host.lowercased() == "localhost" { return nil }
            let addresses = [target.host, connectAddress].compactMap { $0.flatMap { IPAddress($0) } }
            if addresses.contains(where: \.isLoopback) { return nil }
        }
        return proxy
    }

    /// The environment variables read, in the order read: the lower-case name first, as curl reads them.
    public static let proxyVariables = ["https_proxy", "HTTPS_PROXY"]
    /// The bypass list's variables, lower-case first.
    public static let bypassVariables = ["no_proxy", "NO_PROXY"]

    /// The run's proxy from the options and the environment.
    /// - Parameters:
    ///   - option: `--proxy`'s value.
    ///   - ignoreEnvironment: `--no-proxy`.
    ///   - environment: the process environment (injected by tests).
    /// - Returns: nil when every connection goes direct.
    /// - Throws: ``ProxySettingsError`` when `--proxy` and `--no-proxy` are both given, or a proxy URL cannot be used.
    public static func resolve(
        option: String?, ignoreEnvironment: Bool, environment: [String: String]
    ) throws -> ProxySettings? {
        if option != nil && ignoreEnvironment {
            throw ProxySettingsError(
                "--proxy and --no-proxy contradict each other: give --proxy URL to use a proxy, --no-proxy to connect directly"
            )
        }
        if ignoreEnvironment { return nil }
        let bypass = first(of: bypassVariables, in: environment).map { NoProxyList(parsing: $0.value) } ?? NoProxyList()
        if let option {
            do {
                return ProxySettings(
                    proxy: try HTTPProxy(parsing: option), bypass: bypass, source: "--proxy", bypassesLoopback: false)
            } catch let error as ProxyURLError {
                throw ProxySettingsError("--proxy: \(error)")
            }
        }
        guard let (name, value) = first(of: proxyVariables, in: environment) else { return nil }
        do {
            return ProxySettings(
                proxy: try HTTPProxy(parsing: value), bypass: bypass, source: name, bypassesLoopback: true)
        } catch let error as ProxyURLError {
            throw ProxySettingsError("\(name): \(error) (or run with --no-proxy to connect directly)")
        }
    }

    /// The first of `names` set to a non-empty value (an empty variable counts as unset, as in curl).
    private static func first(of names: [String], in environment: [String: String]) -> (name: String, value: String)? {
        for name in names {
            if let value = environment[name], !value.trimmingCharacters(in: .whitespaces).isEmpty {
                return (name, value)
            }
        }
        return nil
    }
}

/// A proxy setting that cannot be used (exit 64 in the CLI): one line, never holding credentials.
public struct ProxySettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
