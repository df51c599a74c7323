import ATSCheckKit
import ATSPolicy
import AppBundleFixtures
import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Trust judged with Apple's store of the release being judged (issue 22): real handshakes with minted PKIs whose
/// roots a test `AppleTrustData` places in some releases' stores, among the removed roots, or under restrictions of
/// the revocation database.
@Suite("Apple trust stores per release", .serialized)
struct AppleTrustStoreTests {
    static let host = "localhost"

    /// A test bundle: one store per `(release, roots)`, oldest first.
    static func data(
        _ stores: [(String, [TestCertificate])], removed: [TestCertificate] = [],
        restrictions: ValidRestrictions = ValidRestrictions()
    ) -> AppleTrustData {
        var roots: [TrustRoot] = []
        for certificate in stores.flatMap(\.1)
        where !roots.contains(where: { $0.sha256 == certificate.sha256.uppercased() }) {
            roots.append(
                TrustRoot(
                    sha256: certificate.sha256, name: certificate.spec.commonName ?? "test root", der: certificate.der))
        }
        let snapshots = stores.map { release, members in
            TrustStoreSnapshot(
                version: "test-\(release)", tag: "test-tag-\(release)", date: "2026-01-01", iOS: release,
                macOS: release, mapping: "test", overTheAir: (Int(release.prefix(2)) ?? 0) >= 18,
                roots: members.map { $0.sha256.uppercased() })
        }
        return AppleTrustData(
            provenance: .init(repository: "test", generated: "2026-11-25", mapping: "test"), snapshots: snapshots,
            roots: roots,
            removedRoots: removed.map {
                TrustRoot(sha256: $0.sha256, name: $0.spec.commonName ?? "test root", der: $0.der)
            },
            restrictions: restrictions)
    }

    /// Serves `[leaf, intermediate]` of `pki` and scans it with `source` as the system roots (no `--ca-file`).
    static func scan(_ pki: TestPKI, source: TrustStoreSource) async throws -> ServerProfile {
        let leaf = try pki.leaf(.leaf(host, "127.0.0.1"))
        let server = try TestTLSServer(TLSServerConfiguration(chain: pki.chain(for: leaf)))
        defer { server.stop() }
        var request = ProbeRequest(
            target: try Target(parsing: "\(host):\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30)
        request.trustSource = source
        request.scope = .atsOnly
        return await TLSProber(perHostLimit: 3).scan(request)
    }

    static func judge(_ profile: ServerProfile, _ release: String) -> ATSEvaluation {
        ATSPolicyEvaluator(for: ATSClient(os: AppleOSVersion(string: release)!)).evaluate(profile, host: host)
    }

    static func messages(_ evaluation: ATSEvaluation, _ rule: RuleID) -> [String] {
        evaluation.violations.filter { $0.rule == rule }.map(\.message)
    }

    @Test("a root only in a later release's store: fails before it, passes from it, and says so")
    func rootAddedLater() async throws {
        let pki = try TestPKI.make(name: "later")
        let other = try TestPKI.make(name: "other")
        let data = Self.data([("15.0", [other.root]), ("16.0", [other.root]), ("17.0", [other.root, pki.root])])
        let profile = try await Self.scan(pki, source: .apple(data))
        let trust = try #require(profile.certificate?.trust)
        #expect(trust.source == "apple")
        #expect(trust.stores.map(\.trusted) == [false, false, true])
        #expect(trust.stores[0].untrustedRoot?.status == .addedLater)
        #expect(trust.stores[0].untrustedRoot?.iOS == "17.0")
        #expect(trust.stores[2].anchor == .system)
        #expect(trust.stores[2].path.last == pki.root.sha256)

        let on15 = Self.judge(profile, "15")
        let reason = try #require(Self.messages(on15, .Trust.untrusted).first)
        #expect(reason.contains("not in Apple's store until iOS 17.0"), "\(reason)")
        #expect(reason.contains("later Test Root CA"))
        #expect(Self.messages(Self.judge(profile, "16.2"), .Trust.untrusted).count == 1)
        let on17 = Self.judge(profile, "17")
        #expect(Self.messages(on17, .Trust.untrusted).isEmpty)
        #expect(
            on17.notes.contains { $0.contains("trusted by the stores of iOS 17.0+, not by those of iOS 15.0–16.0") })
        // The newest store's outcome is the report's own trust fields.
        #expect(profile.certificate?.trusted == true)
        #expect(profile.certificate?.anchor == .system)
    }

    @Test("a root Apple removed: no release trusts it, and the reason names Apple's removed list")
    func rootRemoved() async throws {
        let pki = try TestPKI.make(name: "removed")
        let other = try TestPKI.make(name: "kept")
        let data = Self.data([("17.0", [other.root]), ("26.0", [other.root])], removed: [pki.root])
        let profile = try await Self.scan(pki, source: .apple(data))
        let trust = try #require(profile.certificate?.trust)
        #expect(trust.stores.allSatisfy { !$0.trusted && $0.untrustedRoot?.status == .removedByApple })
        let reason = try #require(Self.messages(Self.judge(profile, "26"), .Trust.untrusted).first)
        #expect(reason.contains("a root Apple removed from its store"), "\(reason)")
        #expect(profile.certificate?.trusted == false)
    }

    @Test("a root dropped from later stores: trusted on the release that had it, not after")
    func rootDroppedLater() async throws {
        let pki = try TestPKI.make(name: "dropped")
        let other = try TestPKI.make(name: "stays")
        let data = Self.data([("16.0", [pki.root, other.root]), ("17.4", [other.root])])
        let profile = try await Self.scan(pki, source: .apple(data))
        #expect(Self.messages(Self.judge(profile, "16.5"), .Trust.untrusted).isEmpty)
        let reason = try #require(Self.messages(Self.judge(profile, "17.4"), .Trust.untrusted).first)
        #expect(reason.contains("no longer has after iOS 16.0"), "\(reason)")
        // 17.0 predates the 17.4 store: the 16.0 store is the one that release shipped.
        #expect(Self.messages(Self.judge(profile, "17.0"), .Trust.untrusted).isEmpty)
    }

    @Test("a cross-signed root: each release's store builds its own path (the old root on 15, the new one on 17)")
    func crossSignedRoot() async throws {
        let old = try TestCertificate.selfSigned(.ca("cross Old Root \(UUID())"))
        var newSpec = CertificateSpec.ca("cross New Root")
        newSpec.keySlot = "cross-new-\(UUID())"
        let new = try TestCertificate.selfSigned(newSpec)
        let cross = try old.issue(newSpec)  // the new root's subject and key, signed by the old root
        let intermediate = try new.issue(.ca("cross Intermediate \(UUID())"))
        let leaf = try intermediate.issue(.leaf(Self.host, "127.0.0.1"))
        let server = try TestTLSServer(TLSServerConfiguration(chain: [leaf, intermediate, cross]))
        defer { server.stop() }
        var request = ProbeRequest(
            target: try Target(parsing: "\(Self.host):\(server.port)"), connectAddress: server.host, timeout: 3,
            deadline: 30)
        request.trustSource = .apple(Self.data([("15.0", [old]), ("17.0", [new])]))
        request.scope = .atsOnly
        let profile = await TLSProber(perHostLimit: 3).scan(request)
        let trust = try #require(profile.certificate?.trust)
        #expect(trust.stores.map(\.trusted) == [true, true])
        #expect(trust.stores[0].path == [leaf.sha256, intermediate.sha256, cross.sha256, old.sha256])
        #expect(trust.stores[1].path == [leaf.sha256, intermediate.sha256, new.sha256])
        // The old root is in neither the chain as sent nor the newest store's path: the report carries it.
        #expect(trust.certificates.map(\.sha256) == [old.sha256])
        for release in ["15", "17"] {
            #expect(Self.messages(Self.judge(profile, release), .Trust.untrusted).isEmpty, "iOS \(release)")
        }
    }

    @Test("over-the-air releases: point-release stores that disagree are called out")
    func overTheAirDisagreement() async throws {
        let pki = try TestPKI.make(name: "ota")
        let other = try TestPKI.make(name: "ota-other")
        let data = Self.data([("18.0", [other.root]), ("18.4", [other.root, pki.root])])
        let profile = try await Self.scan(pki, source: .apple(data))
        let on18 = Self.judge(profile, "18.0")
        #expect(Self.messages(on18, .Trust.untrusted).count == 1)
        #expect(on18.notes.contains { $0.contains("over the air") })
    }

    @Test("Apple's revocation database: a certificate issued after an issuer's cut-off date fails")
    func dateCutOff() async throws {
        let pki = try TestPKI.make(name: "cutoff")
        let cutOff = Date(timeIntervalSince1970: 1_669_852_800)  // 2022-12-01
        let restrictions = ValidRestrictions(
            source: "test valid.sqlite3", groups: [.init(id: 74, notAfter: cutOff)],
            issuers: [pki.intermediate.sha256.uppercased(): 0])
        let profile = try await Self.scan(
            pki, source: .apple(Self.data([("26.0", [pki.root])], restrictions: restrictions)))
        let findings = try #require(profile.certificate?.trust?.stores.first?.distrust)
        #expect(findings.map(\.kind) == [.issuedAfterCutOff])
        let message = try #require(Self.messages(Self.judge(profile, "26"), .Trust.distrusted).first)
        #expect(message.contains("after Apple's cut-off of 2022-12-01"), "\(message)")
        #expect(message.contains("test valid.sqlite3"))
    }

    @Test(
        "Apple's revocation database: an intermediate outside its issuer's allow-list, or unknown under a known-only CA"
    )
    func allowListAndKnownOnly() async throws {
        let pki = try TestPKI.make(name: "allow")
        let listed = String(repeating: "AB", count: 32)
        let allowList = ValidRestrictions(
            source: "test db", groups: [.init(id: 1, allowed: [listed])], issuers: [pki.root.sha256.uppercased(): 0])
        let allowed = try await Self.scan(
            pki, source: .apple(Self.data([("26.0", [pki.root])], restrictions: allowList)))
        #expect(allowed.certificate?.trust?.stores.first?.distrust.map(\.kind) == [.notAllowListed])
        #expect(Self.messages(Self.judge(allowed, "26"), .Trust.distrusted).first?.contains("allow-list") == true)

        let knownOnly = ValidRestrictions(
            source: "test db", groups: [.init(id: 2, knownOnly: true)], issuers: [pki.root.sha256.uppercased(): 0])
        let unknown = try await Self.scan(
            pki, source: .apple(Self.data([("26.0", [pki.root])], restrictions: knownOnly)))
        #expect(unknown.certificate?.trust?.stores.first?.distrust.map(\.kind) == [.unknownIntermediate])
        // Listed as a known issuer, the same intermediate passes.
        var known = knownOnly
        known.knownIssuers = [pki.intermediate.sha256.uppercased()]
        let passes = try await Self.scan(pki, source: .apple(Self.data([("26.0", [pki.root])], restrictions: known)))
        #expect(passes.certificate?.trust?.stores.first?.distrust == [])
        #expect(Self.messages(Self.judge(passes, "26"), .Trust.distrusted).isEmpty)
    }

    @Test("--trust-store PATH: the PEM bundle's roots are system roots; host is labelled as this machine's")
    func pemBundleAndHost() async throws {
        let pki = try TestPKI.make(name: "pem")
        let path = TestScratch.file("atscheck-roots", suffix: ".pem")
        try pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let profile = try await Self.scan(pki, source: .pemBundle(path))
        let trust = try #require(profile.certificate?.trust)
        #expect(trust.source == "pem" && trust.label.contains(path))
        #expect(trust.stores.count == 1 && trust.stores[0].trusted && trust.stores[0].anchor == .system)

        let host = try await Self.scan(pki, source: .host)
        #expect(host.certificate?.trust?.label.contains("not Apple's") == true)
        #expect(host.certificate?.trusted == false)  // the minted root is in no host store
    }
}

extension AppleTrustStoreTests {
    @Test("atscheck app: an app for iOS 15+ whose server chains to a root first in iOS 17's store, per era")
    func appErasFollowTheStores() async throws {
        let pki = try TestPKI.make(name: "app-era")
        let other = try TestPKI.make(name: "app-era-other")
        let (logA, logB) = (try TestCTLog("Era Log A", operator: "Op A"), try TestCTLog("Era Log B", operator: "Op B"))
        let host = "api.app-era.test"
        let spec = CertificateSpec.leaf(host).withSignedSCTs([SCTSpec(logA), SCTSpec(logB)])
        let server = try TestTLSServer(.modern(chain: pki.chain(for: try pki.leaf(spec))))
        defer { server.stop() }
        let folder = URL(fileURLWithPath: TestScratch.file("atscheck-app-era"))
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.acme.era", "CFBundleShortVersionString": "1.0", "CFBundleExecutable": "Era",
            "MinimumOSVersion": "15.0",
        ]
        let ipa = folder.appendingPathComponent("Era.ipa")
        try BundleTree(files: [
            "Info.plist": BundleTree.xmlPlist(info),
            "Era": Data(MachOWriter.executable(sections: [.cstrings(["https://\(host):\(server.port)/v1/"])])),
        ]).prefixed("Payload/Era.app").zip(to: ipa)

        var settings = ScanSettings()
        settings.timeout = 3
        settings.scope = .atsOnly
        settings.resolve = [try ResolveRule(parsing: "\(host):\(server.port):127.0.0.1")]
        settings.trustSource = .apple(
            Self.data([("15.0", [other.root]), ("16.0", [other.root]), ("17.0", [other.root, pki.root])]))
        settings.ctLogList = try TestCTLogList.make([TestCTLogListing(logA), TestCTLogListing(logB)])
        let result = try await AppLiveAudit.run(path: ipa.path, settings: settings)
        let endpoint = try #require(result.endpoints.first { $0.endpoint.hasPrefix(host) })
        #expect(endpoint.summary == "fails on iOS 15–16, passes on 17+", "\(endpoint.summary)")
    }
}

extension AppleTrustStoreTests {
    @Test("pin path building follows --trust-store: to the PEM bundle's root, not to this machine's or Apple's store")
    func pinPathsFollowTheTrustStore() async throws {
        let pki = try TestPKI.make(name: "pin-path")
        let profile = try await Self.scan(pki, source: .none)
        let served = try #require(profile.certificate?.chain)
        let path = TestScratch.file("atscheck-pin-roots", suffix: ".pem")
        try pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: path) }

        let bundle = try OpenSSLTrustPathBuilder(served: served, caFiles: [], source: .pemBundle(path))
            .build(anchors: .system, policy: .ssl(host: Self.host))
        #expect(bundle.ok, "\(bundle.error ?? "")")
        #expect(bundle.path.map(\.sha256) == [served[0].sha256, pki.intermediate.sha256, pki.root.sha256])
        for source in [TrustStoreSource.apple(TrustInputs.bundled), .host] {
            let other = try OpenSSLTrustPathBuilder(served: served, caFiles: [], source: source)
                .build(anchors: .system, policy: .ssl(host: Self.host))
            #expect(!other.ok, "\(source.recorded)")
        }
    }
}

/// The bundled data, as generated from apple-oss-distributions/security_certificates.
@Suite("Bundled Apple trust data")
struct BundledAppleTrustTests {
    @Test("stores for every release the tool judges trust with, each with provenance")
    func stores() throws {
        let data = TrustInputs.bundled
        #expect(data.snapshots.count >= 5)
        for release in ["15.0", "16.0", "17.0", "18.0", "26.0"] {
            #expect(data.snapshots.contains { $0.iOS == release }, "iOS \(release)")
        }
        #expect(
            data.snapshots.map(\.iOSNumbers)
                == data.snapshots.map(\.iOSNumbers).sorted { $0.lexicographicallyPrecedes($1) })
        let newest = try #require(data.snapshots.last)
        #expect(newest.tag == "security_certificates-55349.0.11" && newest.version == "2025072000")
        #expect(newest.roots.count == 156)
        #expect(newest.mapping.hasPrefix("confirmed"))
        let known = Set(data.roots.map(\.sha256))
        #expect(data.snapshots.allSatisfy { Set($0.roots).isSubset(of: known) })
        #expect(Set(data.removedRoots.map(\.sha256)).isDisjoint(with: known))
        #expect(data.roots.allSatisfy { $0.der.count > 300 })
        // Apple's own anchors (SecGetAppleTrustAnchors), for which trustd requires no CT.
        #expect(
            Set(data.roots.filter { $0.appleAnchor == true }.map(\.name)) == [
                "Apple Root CA", "Apple Root CA - G2", "Apple Root CA - G3",
            ])
    }

    @Test("a release maps to the newest store shipped at or before it")
    func selection() {
        let data = TrustInputs.bundled
        #expect(data.snapshot(forIOS: [17, 3])?.iOS == "17.0")
        #expect(data.snapshot(forIOS: [17, 4])?.iOS == "17.4")
        #expect(data.snapshot(forIOS: [26, 4])?.iOS == "26.0")
        #expect(data.snapshot(forIOS: [12, 0])?.iOS == data.snapshots.first?.iOS)
    }

    @Test("TrustCor's cut-off and the CT log list are carried")
    func restrictionsAndLogs() throws {
        let data = TrustInputs.bundled
        let cutOff = Date(timeIntervalSince1970: 1_669_852_800)  // 2022-12-01
        #expect(data.restrictions.groups.filter { $0.notAfter == cutOff }.count == 3)
        #expect(data.restrictions.groups.contains { $0.policies == [3] })
        let logs = try #require(data.logList)
        #expect(logs.logs.count == 132)
        #expect(Set(logs.logs.map(\.operator)).count == 15)
        #expect(logs.logs.contains { $0.tiled })
        #expect(logs.logs.allSatisfy { Data(base64Encoded: $0.id)?.count == 32 })
        // Dates as the list writes them (`2025-06-13T02:40:00Z`), read exactly.
        let tuscolo = try #require(logs.logs.first { $0.description == "Tuscolo2025h2" })
        #expect(tuscolo.state == .qualified && tuscolo.tiled && tuscolo.operator == "Geomys")
        #expect(tuscolo.stateSince == Date(timeIntervalSince1970: 1_749_782_400))
        #expect(tuscolo.interval?.start == Date(timeIntervalSince1970: 1_751_328_000))
        #expect(tuscolo.interval?.end == Date(timeIntervalSince1970: 1_767_225_600))
    }
}
