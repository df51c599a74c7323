import ATSCheckKit
import ATSPolicy
import AppBundleFixtures
import CertificateTrust
import Foundation
import Judging
import Pinning
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// `atscheck app` live, end to end: a bundle written per test whose harvested endpoints are in-process servers on
/// loopback (`--resolve` maps the `.test` names); verdicts per OS era and pin results asserted.
@Suite("App live audit end to end (loopback only)")
struct AppLiveEndToEndTests {
    /// The servers of one test and the settings that reach them.
    final class Servers {
        let pki = TestPKI.shared
        var servers: [String: TestTLSServer] = [:]
        let folder: URL

        init() throws {
            folder = URL(fileURLWithPath: TestScratch.file("atscheck-app-live"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try pki.rootPEM.write(to: folder.appendingPathComponent("ca.pem"), atomically: true, encoding: .utf8)
            let chain = { (host: String) in try self.pki.chain(for: self.pki.leaf(.leaf(host))) }
            // api: modern; legacy and old: TLS 1.1 only (legacy has the bundle's exception, old has none);
            // new: TLS 1.3 only (iOS 12.0/12.1 offer no TLS 1.3); other: self-signed, outside the pinned PKI.
            servers["api"] = try TestTLSServer(.modern(chain: chain(Self.host("api"))))
            servers["legacy"] = try TestTLSServer(
                .only(.tls1_1, cipherList: "ECDHE-RSA-AES128-SHA", chain: chain(Self.host("legacy"))))
            servers["old"] = try TestTLSServer(
                .only(.tls1_1, cipherList: "ECDHE-RSA-AES128-SHA", chain: chain(Self.host("old"))))
            servers["new"] = try TestTLSServer(.only(.tls1_3, chain: chain(Self.host("new"))))
            var other = CertificateSpec.leaf(Self.host("other"))
            other.keySlot = "app-live-other"
            servers["other"] = try TestTLSServer(.modern(chain: [try TestCertificate.selfSigned(other)]))
        }

        deinit {
            servers.values.forEach { $0.stop() }
            try? FileManager.default.removeItem(at: folder)
        }

        static func host(_ name: String) -> String { "\(name).app-live.test" }
        func port(_ name: String) -> Int { servers[name]!.port }
        func target(_ name: String) -> String { "\(Self.host(name)):\(port(name))" }

        var settings: ScanSettings {
            var settings = ScanSettings()
            settings.timeout = 3
            settings.concurrency = 4
            settings.useSystemTrustStore = false
            settings.caFiles = [folder.appendingPathComponent("ca.pem").path]
            settings.scope = .atsOnly
            settings.resolve = servers.keys.sorted().map { try! ResolveRule(parsing: "\(target($0)):127.0.0.1") }
            return settings
        }

        /// An `.ipa` whose executable names every server (and a cleartext URL), AFNetworking's class name (linked
        /// statically: pins from the main bundle) unless `afFramework` gives a framework version.
        func ipa(
            exceptions: [String: Any], afFramework: String? = nil, frameworkPin: Bool = false,
            extraInfo: [String: Any] = [:]
        ) throws -> String {
            var info: [String: Any] = [
                "CFBundleIdentifier": "com.acme.live", "CFBundleShortVersionString": "2.0",
                "CFBundleExecutable": "Live",
                "MinimumOSVersion": "12.0",
                "NSAppTransportSecurity": ["NSExceptionDomains": exceptions],
            ]
            info.merge(extraInfo) { _, new in new }
            var strings =
                servers.keys.sorted().map { "https://\(target($0))/v1/" } + ["http://plain.app-live.test/feed"]
            if afFramework == nil { strings.append("AFSecurityPolicy") }
            var files: [String: Data] = [
                "Info.plist": BundleTree.xmlPlist(info),
                "Live": Data(MachOWriter.executable(sections: [.cstrings(strings)])),
                "root.cer": pki.root.der,
            ]
            if let afFramework {
                let plist: [String: Any] = [
                    "CFBundleIdentifier": "org.cocoapods.AFNetworking", "CFBundleShortVersionString": afFramework,
                ]
                files["Frameworks/AFNetworking.framework/Info.plist"] = BundleTree.binaryPlist(plist)
                files["Frameworks/AFNetworking.framework/AFNetworking"] = Data(
                    MachOWriter.executable(sections: [.cstrings(["AFSecurityPolicy"])]))
                if frameworkPin { files["Frameworks/AFNetworking.framework/root.cer"] = pki.root.der }
            }
            let path = folder.appendingPathComponent("Live-\(UUID().uuidString).ipa")
            try BundleTree(files: files).prefixed("Payload/Live.app").zip(to: path)
            return path.path
        }
    }

    static var legacyException: [String: Any] {
        [
            Servers.host("legacy"): ["NSExceptionMinimumTLSVersion": "TLSv1.1"],
            "plain.app-live.test": ["NSExceptionAllowsInsecureHTTPLoads": true],
        ]
    }

    /// The OpenSSL prober, counting the endpoints it is asked to scan.
    final class CountingProber: EndpointProber, @unchecked Sendable {
        let inner = TLSProber()
        let lock = NSLock()
        var targets: [String] = []

        func scan(_ request: ProbeRequest) async -> ServerProfile {
            lock.withLock { targets.append("\(request.target.host):\(request.target.port)") }
            return await inner.scan(request)
        }
    }

    static func endpoint(_ result: AppLiveResult, _ name: String) -> AppEndpointEras? {
        result.endpoints.first { $0.endpoint.hasPrefix(Servers.host(name)) }
    }

    @Test("verdicts per era from one probe each; a TLS 1.1 server passes under the bundle's exception, another fails")
    func erasAndExceptions() async throws {
        let servers = try Servers()
        let prober = CountingProber()
        let result = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: Self.legacyException), settings: servers.settings, prober: prober)

        #expect(result.eras.first == AppleOSVersion(12))
        #expect(result.eras.last == AppleOSVersion.newest)
        #expect(result.endpoints.count == 6)
        #expect(Self.endpoint(result, "api")?.summary == "passes on iOS 12+")
        #expect(Self.endpoint(result, "legacy")?.summary == "passes on iOS 12+")
        #expect(Self.endpoint(result, "old")?.summary == "fails on iOS 12+")
        let new = try #require(Self.endpoint(result, "new"))
        #expect(new.summary.hasPrefix("fails on iOS 12–12.1"), "\(new.summary)")
        #expect(new.summary.hasSuffix("passes on 13+"), "\(new.summary)")
        #expect(new.eras.count == result.eras.count)
        #expect(result.endpoints.first { $0.endpoint.hasPrefix("http://") }?.summary == "passes on iOS 12+")
        // One probe per https endpoint, not one per era (12 eras here); the cleartext one is never probed.
        #expect(result.eras.count > 1)
        #expect(prober.targets.sorted() == ["api", "legacy", "new", "old", "other"].map(servers.target))
        #expect(result.report.endpoints.count == 6)
        #expect(result.report.endpoints.allSatisfy { $0.profile.status == .completed })

        // The report shows the first failing era's evaluation; findings say which eras fail, once each.
        let newReport = try #require(result.report.endpoints.first { $0.profile.host == Servers.host("new") })
        #expect(newReport.ats.verdict == .fail)
        let newFindings = result.report.findings.filter {
            $0.message.contains(servers.target("new")) && $0.severity == .error
        }
        #expect(!newFindings.isEmpty)
        #expect(newFindings.allSatisfy { $0.message.contains(" only") })
        #expect(newFindings.contains { $0.message.hasSuffix("— on iOS 12–12.1 only") })
        let oldMissing = result.report.findings.filter {
            $0.rule == RuleID.Audit.exceptionMissing && $0.message.contains(servers.target("old"))
        }
        #expect(oldMissing.count == 1)
        #expect(oldMissing.first?.message.contains(" only") == false)
        #expect(oldMissing.first?.file?.hasSuffix("Payload/Live.app/Live") == true)
        #expect(
            result.exceptionDebt.contains {
                $0.debt.kind == .missing && $0.debt.domain == Servers.host("old") && $0.eras.count == result.eras.count
            })
        #expect(result.exitStatus == .policyFailure)

        // Without the exception, the same TLS 1.1 server fails.
        let strict = try await AppLiveAudit.run(path: try servers.ipa(exceptions: [:]), settings: servers.settings)
        #expect(Self.endpoint(strict, "legacy")?.summary == "fails on iOS 12+")
        #expect(
            strict.report.findings.contains {
                $0.rule == RuleID.Audit.exceptionMissing && $0.message.contains(servers.target("legacy"))
            })
    }

    @Test("bundled .cer pins: the root matches the PKI's servers in both AFNetworking modes, not the self-signed one")
    func bundledPins() async throws {
        let servers = try Servers()
        let result = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: Self.legacyException), settings: servers.settings)
        let bundled = result.pins.filter { $0.origin == .bundledCertificates }
        #expect(Set(bundled.compactMap(\.mode)) == ["certificate", "public-key"])
        #expect(bundled.allSatisfy { $0.library == .afnetworking && $0.assumed })
        func verdicts(_ name: String) -> [PinVerdict?] {
            bundled.filter { $0.endpoint == servers.target(name) }.map(\.result.evaluation?.verdict)
        }
        #expect(verdicts("api") == [.accept, .accept])
        #expect(verdicts("other") == [.reject, .reject])
        // Assumed modes: the rejection is a warning naming the modes, not an error.
        let rejected = result.report.findings.filter { $0.rule == RuleID.Pins.rejected }
        #expect(rejected.count == 1)
        #expect(rejected.first?.severity == .warning)
        #expect(rejected.first?.message.contains("certificate and public-key mode rejects it") == true)

        // Named (--library afnetworking --mode certificate): one mode, and its rejection is an error.
        let named = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: Self.legacyException), settings: servers.settings,
            pinScope: AppPinScope(library: .afnetworking, values: PinOptionValues(["mode": "certificate"])))
        let namedChecks = named.pins.filter { $0.origin == .bundledCertificates }
        #expect(namedChecks.allSatisfy { $0.mode == "certificate" && !$0.assumed })
        #expect(
            named.report.findings.contains {
                $0.rule == RuleID.Pins.rejected && $0.severity == .error && $0.message.contains(servers.target("other"))
            })
    }

    @Test("AFNetworking 3 as a dynamic framework ignores the app-level .cer; its own bundle's .cer is used")
    func afNetworking3Framework() async throws {
        let servers = try Servers()
        let ignored = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: Self.legacyException, afFramework: "3.2.1"), settings: servers.settings)
        let checks = ignored.pins.filter { $0.origin == .bundledCertificates }
        #expect(!checks.isEmpty)
        #expect(checks.allSatisfy { $0.result.evaluation?.verdict == .reject })
        #expect(checks.allSatisfy { $0.pinFiles.isEmpty })
        #expect(checks.first?.note?.contains("the 1 .cer file(s) at the app's top level are never used") == true)
        #expect(
            ignored.report.findings.contains {
                $0.rule == RuleID.Pins.rejected && $0.message.contains("has no certificate to pin")
            })

        let own = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: Self.legacyException, afFramework: "3.2.1", frameworkPin: true),
            settings: servers.settings)
        let ownChecks = own.pins.filter { $0.origin == .bundledCertificates && $0.endpoint == servers.target("api") }
        #expect(ownChecks.count == 2)
        #expect(ownChecks.allSatisfy { $0.result.evaluation?.verdict == .accept })
        #expect(ownChecks.first?.pinFiles.first?.hasSuffix("AFNetworking.framework/root.cer") == true)
    }

    @Test("NSPinnedDomains and TSKConfiguration checked against the hosts they cover")
    func configuredPins() async throws {
        let servers = try Servers()
        let intermediate = try CertificateParsing.facts(der: servers.pki.intermediate.der).spkiSHA256
        let spare = "YN+A6d3fbwjbaPCVXAY5oqzK3S7uFPvwAPNxRHZgEmI="
        var exceptions = Self.legacyException
        exceptions[Servers.host("api")] = [:]
        let extra: [String: Any] = [
            "NSAppTransportSecurity": [
                "NSExceptionDomains": Self.legacyException,
                "NSPinnedDomains": [
                    Servers.host("api"): ["NSPinnedCAIdentities": [["SPKI-SHA256-BASE64": intermediate]]],
                    Servers.host("old"): ["NSPinnedLeafIdentities": [["SPKI-SHA256-BASE64": spare]]],
                ],
            ],
            "TSKConfiguration": [
                "TSKPinnedDomains": [Servers.host("new"): ["TSKPublicKeyHashes": [intermediate, spare]]]
            ],
        ]
        let result = try await AppLiveAudit.run(
            path: try servers.ipa(exceptions: exceptions, extraInfo: extra), settings: servers.settings)
        let pinned = result.pins.filter { $0.origin == .pinnedDomains }
        #expect(pinned.first { $0.endpoint == servers.target("api") }?.result.evaluation?.verdict == .accept)
        #expect(pinned.first { $0.endpoint == servers.target("old") }?.result.evaluation?.verdict == .reject)
        let trustKit = result.pins.filter { $0.origin == .trustKit }
        #expect(trustKit.map(\.endpoint) == [servers.target("new")])
        #expect(trustKit.first?.result.evaluation?.verdict == .accept)
        #expect(
            result.report.findings.contains {
                $0.rule == RuleID.Pins.rejected && $0.severity == .error && $0.message.contains(servers.target("old"))
            })
    }
}
