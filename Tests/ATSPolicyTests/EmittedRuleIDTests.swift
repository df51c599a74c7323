import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The linter and the policy engine, over the test fixtures, emit only ids their own registries declare, and the
/// lint cases reach every plist rule. The one check that every id is catalogued is `RuleRegistryTests`
/// (ATSCheckKitFakeProberTests); this suite checks each module's ids against its own registries.
@Suite("Emitted rule ids are declared by their module's registries")
struct EmittedRuleIDTests {
    static func violations(_ e: ATSEvaluation) -> [RuleID] {
        e.violations.map(\.rule) + e.readings.flatMap { $0.violations.map(\.rule) }
    }

    @Test("the linter over every lint case")
    func linter() throws {
        var seen: Set<RuleID> = []
        for c in positiveCases {
            seen.formUnion(
                try PlistFixtures.lint(c.body, options: .init(deploymentTarget: c.deploymentTarget)).map(\.rule))
        }
        for c in negativeCases {
            seen.formUnion(try PlistFixtures.lint(c.body, options: .init(osVersion: c.osVersion)).map(\.rule))
        }
        let noATS = PlistFixtures.xml("<dict>\n<key>CFBundleIdentifier</key><string>com.example.app</string>\n</dict>")
        seen.formUnion(PlistLinter.lint(try PlistDocument.parse(data: noATS, file: "Info.plist")).map(\.rule))
        // What reading a source file reports: a Catalyst minimum, configurations that do not parse or are too many.
        let catalyst = PlistFixtures.xml(
            "<dict><key>LSRequiresIPhoneOS</key><true/><key>LSMinimumSystemVersion</key><string>14</string></dict>")
        seen.formUnion(PlistLinter.lint(try PlistDocument.parse(data: catalyst, file: "Info.plist")).map(\.rule))
        let conditions =
            "#ifdef BROKEN\n<key>A</key>\n#endif\n"
            + (1...3).map { "#ifdef N\($0)\n<key>K\($0)</key><true/>\n#endif" }.joined(separator: "\n")
        seen.formUnion(
            PlistLinter.lint(try PlistSourceTests.source(PlistFixtureText.info(conditions))).map(\.rule))
        let undeclared = seen.filter { RuleRegistry.plist.descriptor(for: $0) == nil }
        #expect(undeclared.isEmpty, "not in RuleRegistry.plist: \(undeclared.sorted())")
        // The cases reach every plist rule, so this check covers the whole family.
        #expect(Set(RuleRegistry.plist.ids).subtracting(seen).isEmpty)
    }

    @Test("the policy engine over the trust cases and negotiation profiles")
    func policyEngine() {
        var seen: Set<RuleID> = []
        for c in TrustRuleTests.cases {
            let p = Fixture.profile(
                Fixture.modern, leaf: c.leaf, intermediates: c.intermediates, trusted: c.trusted, anchor: c.anchor)
            seen.formUnion(Self.violations(Fixture.evaluate(p, os: c.os)))
        }
        let suites: [[TLSVersion: [CipherSuite]]] = [
            Fixture.modern, Fixture.tls12Good, Fixture.tls10Only, Fixture.rsaKxOnly, Fixture.tls13Only,
            Fixture.cbcSHA256Only, Fixture.dheOnly, [.tls1_3: [.TLS_CHACHA20_POLY1305_SHA256]],
        ]
        let configs = [
            ATSConfiguration.default,
            Fixture.config(["NSExceptionDomains": ["api.example.com": ["NSExceptionMinimumTLSVersion": "TLSv1.3"]]]),
            Fixture.config(["NSRequiresNIAPTLSPackageVersion": "FCP_v2.1"]),
        ]
        for suite in suites {
            for config in configs {
                for os in ["9", "12", "12.2", "15.4", "26.4"] {
                    seen.formUnion(Self.violations(Fixture.evaluate(Fixture.profile(suite), config, os: os)))
                    seen.formUnion(
                        Self.violations(Fixture.evaluate(Fixture.profile(suite), config, os: os, scheme: "http")))
                }
            }
        }
        let registries = [RuleRegistry.atsHTTP, .atsTLS, .trust]
        let undeclared = seen.filter { id in registries.allSatisfy { $0.descriptor(for: id) == nil } }
        #expect(undeclared.isEmpty, "not in the ATS and trust registries: \(undeclared.sorted())")
        #expect(
            seen.contains(RuleID.ATS.cleartext) && seen.contains(RuleID.ATS.forwardSecrecy)
                && seen.contains(RuleID.Trust.eku))
    }
}
