import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The index behind `--explain`'s linear look-ups finds the same entry as a walk over every key (issue 32).
@Suite("ExceptionIndex")
struct ExceptionIndexTests {
    static let domains: [String: ExceptionDomain] = [
        "10.0.0.5": ExceptionDomain(allowsInsecureHTTPLoads: true),
        "10.0.0.0/8": ExceptionDomain(minimumTLSVersion: .tls1_0),
        "10.0.0.0/24": ExceptionDomain(requiresForwardSecrecy: false),
        "10.0.0.0/16": ExceptionDomain(),
        "2001:db8::/32": ExceptionDomain(allowsInsecureHTTPLoads: true),
        "2001:db8::1": ExceptionDomain(),
        "example.com": ExceptionDomain(includesSubdomains: true),
        "deep.a.example.com": ExceptionDomain(),
        "plain.org": ExceptionDomain(),
        "apple.com": ExceptionDomain(),
    ]

    /// The governing key as the engine found it before the index: a walk over every key, the longest CIDR prefix.
    static func walked(_ host: String) -> String? {
        guard let ip = IPAddress(literal: host) else { return nil }
        if let exact = domains.keys.sorted().first(where: { !$0.contains("/") && IPAddress(literal: $0) == ip }) {
            return exact
        }
        return domains.keys.sorted().compactMap { key -> (String, Int)? in
            guard let range = CIDRRange(key), range.contains(ip) else { return nil }
            return (key, range.prefixLength)
        }.max { $0.1 < $1.1 }?.0
    }

    static let hosts = [
        "10.0.0.5", "10.0.0.6", "10.0.1.1", "10.1.1.1", "11.0.0.1", "2001:db8::1", "2001:db8::2", "2001:db9::1",
        "192.0.2.1",
    ]

    @Test("IP literals: the exact key, else the longest CIDR prefix, as the walk over every key", arguments: hosts)
    func addresses(_ host: String) {
        let resolver = ExceptionResolver(domains: Self.domains, index: ExceptionIndex(Self.domains), overlay: nil)
        let match = resolver.match(
            host, os: .newest, depth: .anyDepth, reading: EntryReading(), address: IPAddress(literal: host))
        #expect(match?.key == Self.walked(host))
    }

    @Test("names: exact keys, ancestors with NSIncludesSubdomains, built-ins, both depth readings")
    func names() {
        let c = ATSConfiguration(exceptionDomains: Self.domains)
        #expect(c.exception(for: "b.a.example.com", os: .newest, depth: .anyDepth)?.key == "example.com")
        #expect(c.exception(for: "b.a.example.com", os: .newest, depth: .oneLevel) == nil)
        #expect(c.exception(for: "x.deep.a.example.com", os: .newest, depth: .anyDepth)?.key == "example.com")
        #expect(c.exception(for: "a.plain.org", os: .newest, depth: .anyDepth) == nil)
        #expect(c.exception(for: "www.apple.com", os: .newest, depth: .anyDepth) == nil, "the app's own key wins")
        let builtIn = c.exception(for: "GS.apple.com", os: .newest, depth: .anyDepth)
        #expect(builtIn?.builtIn == true && builtIn?.key == "gs.apple.com")
        #expect(c.exception(for: "10.0.0.5", os: AppleOSVersion(string: "16.0")!, depth: .anyDepth) == nil)
    }

    @Test("an overlay removes or changes one entry; a removed IP key falls back to the next prefix")
    func overlay() {
        let index = ExceptionIndex(Self.domains)
        let removed = ExceptionResolver(
            domains: Self.domains, index: index, overlay: ExceptionOverlay(key: "10.0.0.0/24", entry: nil))
        #expect(
            removed.match(
                "10.0.0.6", os: .newest, depth: .anyDepth, reading: EntryReading(),
                address: IPAddress(literal: "10.0.0.6"))?.key == "10.0.0.0/16")
        let changed = ExceptionResolver(
            domains: Self.domains, index: index,
            overlay: ExceptionOverlay(key: "example.com", entry: ExceptionDomain(includesSubdomains: false)))
        #expect(
            changed.match("a.example.com", os: .newest, depth: .anyDepth, reading: EntryReading(), address: nil) == nil)
    }

    @Test("the index records which parsing conflicts any entry can be read two ways under")
    func readingConflicts() {
        #expect(ExceptionIndex(Self.domains).readingConflicts.isEmpty)
        let numeric = ExceptionDomain(dictionary: ["NSIncludesSubdomains": NSNumber(value: 1)])
        let strings = ExceptionDomain(dictionary: ["NSIncludesSubdomains": "YES"])
        #expect(
            ExceptionIndex(["a.com": numeric, "b.com": strings]).readingConflicts == [
                .perDomainNumbers, .perDomainStrings,
            ])
    }

    @Test("a look-up examines a few entries, whatever the number of keys")
    func constantWork() {
        var many = Self.domains
        for i in 0..<5_000 { many["host\(i).example.org"] = ExceptionDomain() }
        let work = ResolutionWork()
        let resolver = ExceptionResolver(domains: many, index: ExceptionIndex(many, work: work), overlay: nil)
        let built = work.entries
        _ = resolver.match("a.b.c.example.com", os: .newest, depth: .anyDepth, reading: EntryReading(), address: nil)
        #expect(built == many.count)
        #expect(work.entries - built <= 8)
    }
}
