import Foundation
import Pinning
import Testing

/// TrustKit's `GetRegistryLength` over its bundled 2018-07-10 snapshot of the Public Suffix List.
@Suite("TrustKit's domain registry")
struct TrustKitDomainRegistryTests {
    @Test(
        "GetRegistryLength: the examples of domain_registry.h that still hold, and TrustKit's snapshot",
        arguments: [
            ("www.google.com", 3), ("WWW.gOoGlE.cOm", 3), ("..google.com", 3), ("google.com.", 4),
            ("a.b.co.uk", 5), ("co.uk", 5), ("C:", 0), ("google.com..", 0), ("foo.臺灣", 0),
            ("foo.xn--nnx388a", 11), ("com", 3),
            // private section entries are in TrustKit's table: appspot.com is why TrustKit checks at all
            ("appspot.com", 11), ("my-app.appspot.com", 11),
            // wildcard and exception rules: *.kawasaki.jp, !city.kawasaki.jp
            ("foo.kawasaki.jp", 15), ("www.foo.kawasaki.jp", 15), ("city.kawasaki.jp", 11),
            // the search's quirk: kawasaki.jp is reached through a node that is no rule, so it has no registry
            ("kawasaki.jp", 0),
            // names the list does not know
            ("localhost", 0), ("api.example.internal", 0), ("staging.atscheck.test", 0), ("printer.local", 0),
            ("10.0.0.1", 0), ("2001:db8::1", 0),
            // delegated after the snapshot: unknown to TrustKit
            ("api.example.music", 0),
            // dropped from the list after the snapshot: still known to TrustKit
            ("www.example.afamilycompany", 14),
            // web.app became a private suffix after the snapshot: for TrustKit the registry is `app`
            ("web.app", 3),
        ])
    func registryLength(_ name: String, _ expected: Int) {
        #expect(TrustKitDomainRegistry.bundled.registryLength(name) == expected, "\(name)")
    }

    @Test("over 255 bytes has no registry; 255 has")
    func length() {
        // TrustKit checks the whole name's length only, not the 63-byte label limit.
        let long = String(repeating: "a", count: 244) + ".example.com"
        #expect(long.utf8.count == 256)
        #expect(TrustKitDomainRegistry.bundled.registryLength(long) == 0)
        #expect(TrustKitDomainRegistry.bundled.registryLength(String(long.dropFirst())) == 3)
    }

    @Test("a registry of given rules: wildcards, exceptions, leaves")
    func customRules() {
        let registry = TrustKitDomainRegistry(
            rules: """
                // a comment
                com
                *.ck
                !www.ck
                """)
        #expect(registry.registryLength("example.com") == 3)
        #expect(registry.registryLength("foo.ck") == 6, "*.ck makes foo.ck a registry")
        #expect(registry.registryLength("a.foo.ck") == 6)
        #expect(registry.registryLength("www.ck") == 2, "the exception puts the registry at ck")
        #expect(registry.registryLength("example.org") == 0)
    }
}
