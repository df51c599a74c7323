import ATSCheckKit
import Foundation
import TLSModel
import Testing

/// Which proxy a run uses (docs/usage.md, Proxy): `--proxy` over the environment, `--no-proxy` against it, `NO_PROXY`
/// for either, loopback direct for an environment proxy only. The environment is injected, never the test process's.
@Suite("Proxy settings: options, environment, bypass")
struct ProxySettingsTests {
    static func target(_ text: String) throws -> Target { try Target(parsing: text) }

    @Test("no option and no variable: every connection goes direct")
    func none() throws {
        #expect(try ProxySettings.resolve(option: nil, ignoreEnvironment: false, environment: [:]) == nil)
        #expect(
            try ProxySettings.resolve(option: nil, ignoreEnvironment: false, environment: ["HTTPS_PROXY": "  "]) == nil)
        // http_proxy and ALL_PROXY are not read: atscheck's connections are all TLS.
        #expect(
            try ProxySettings.resolve(
                option: nil, ignoreEnvironment: false,
                environment: ["http_proxy": "http://p:1", "ALL_PROXY": "socks5://p:2"]) == nil)
    }

    @Test("HTTPS_PROXY and https_proxy are read, the lower-case one first (as curl)")
    func environment() throws {
        let upper = try #require(
            try ProxySettings.resolve(
                option: nil, ignoreEnvironment: false, environment: ["HTTPS_PROXY": "http://upper:3128"]))
        #expect(upper.proxy.host == "upper" && upper.source == "HTTPS_PROXY" && upper.bypassesLoopback)
        let both = try #require(
            try ProxySettings.resolve(
                option: nil, ignoreEnvironment: false,
                environment: ["HTTPS_PROXY": "http://upper:3128", "https_proxy": "http://lower:3128"]))
        #expect(both.proxy.host == "lower" && both.source == "https_proxy")
    }

    @Test("--proxy wins over the environment; --no-proxy ignores it; both together are refused")
    func precedence() throws {
        let env = ["HTTPS_PROXY": "http://env:3128", "NO_PROXY": "skip.test"]
        let option = try #require(
            try ProxySettings.resolve(option: "http://option:8080", ignoreEnvironment: false, environment: env))
        #expect(option.proxy.host == "option" && option.source == "--proxy" && !option.bypassesLoopback)
        // NO_PROXY applies to --proxy too, as curl applies it to -x.
        #expect(option.proxy(for: try Self.target("a.skip.test"), connectAddress: nil) == nil)
        #expect(try ProxySettings.resolve(option: nil, ignoreEnvironment: true, environment: env) == nil)
        let conflict = try #require(throws: ProxySettingsError.self) {
            try ProxySettings.resolve(option: "http://option:8080", ignoreEnvironment: true, environment: env)
        }
        #expect(conflict.message.contains("--proxy and --no-proxy"))
    }

    @Test("a proxy URL that cannot be used names its source and never the password")
    func malformed() throws {
        let option = try #require(throws: ProxySettingsError.self) {
            try ProxySettings.resolve(option: "https://u:hunter2@p:1", ignoreEnvironment: false, environment: [:])
        }
        #expect(option.message.hasPrefix("--proxy: proxy URL 'https://***@p:1': https:// proxies"))
        let env = try #require(throws: ProxySettingsError.self) {
            try ProxySettings.resolve(
                option: nil, ignoreEnvironment: false, environment: ["HTTPS_PROXY": "socks5://u:hunter2@p:1"])
        }
        #expect(env.message.hasPrefix("HTTPS_PROXY: proxy URL 'socks5://***@p:1': SOCKS"))
        #expect(env.message.contains("--no-proxy"))
        #expect(!env.message.contains("hunter2") && !option.message.contains("hunter2"))
        // A malformed variable is ignored once --no-proxy says to ignore the environment.
        #expect(
            try ProxySettings.resolve(
                option: nil, ignoreEnvironment: true, environment: ["HTTPS_PROXY": "socks5://p:1"]) == nil)
    }

    @Test("an environment proxy is not used for localhost or loopback addresses; --proxy is")
    func loopback() throws {
        let env = try #require(
            try ProxySettings.resolve(option: nil, ignoreEnvironment: false, environment: ["https_proxy": "http://p:1"])
        )
        #expect(env.proxy(for: try Self.target("localhost:8443"), connectAddress: nil) == nil)
        #expect(env.proxy(for: try Self.target("127.0.0.7:443"), connectAddress: nil) == nil)
        #expect(env.proxy(for: try Self.target("[::1]:443"), connectAddress: nil) == nil)
        #expect(env.proxy(for: try Self.target("api.test"), connectAddress: "127.0.0.1") == nil)
        #expect(env.proxy(for: try Self.target("api.test"), connectAddress: "192.0.2.1")?.host == "p")
        #expect(env.proxy(for: try Self.target("api.test"), connectAddress: nil)?.host == "p")
        let option = try #require(
            try ProxySettings.resolve(option: "http://p:1", ignoreEnvironment: false, environment: [:]))
        #expect(option.proxy(for: try Self.target("127.0.0.1:443"), connectAddress: nil)?.host == "p")
    }

    @Test("the plan gives each target its proxy, and --resolve and --all-addresses addresses are what it is asked for")
    func planned() throws {
        var settings = ScanSettings()
        settings.proxy = try ProxySettings.resolve(
            option: "http://p:1", ignoreEnvironment: false, environment: ["no_proxy": ".direct.test"])
        settings.resolve = [ResolveRule(host: "api.test", port: 443, address: "192.0.2.7")]
        let proxied = settings.request(for: try Self.target("api.test"))
        #expect(proxied.proxy?.host == "p")
        #expect(proxied.tunnelAuthority == "192.0.2.7:443")
        #expect(settings.request(for: try Self.target("x.direct.test")).proxy == nil)
        #expect(settings.request(for: try Self.target("[2001:db8::1]:8443")).tunnelAuthority == "[2001:db8::1]:8443")
    }
}
