import AppleTrust
import Foundation
import Judging
import Pinning
import TLSModel

/// Evaluates pinning policies against served chains: the facade of `atscheck pins check`.
package struct PinChecker: Sendable {
    /// The policy the options describe.
    package var policy: PinPolicy
    /// The pin material.
    package var pins: LoadedPins
    /// `--ca-file` roots.
    package var caFiles: [String]
    /// Whether this machine's trust store counts (tests turn it off to stay independent of it).
    package var useSystemStore: Bool
    /// `--trust-store`: whose roots the path is built to (the newest of Apple's stores by default, as iOS builds it).
    package var trustSource: TrustStoreSource = .apple(AppleTrustBundle.bundled)
    /// `--warn-days`.
    package var warnDays: Int
    /// The evaluation time.
    package var now: Date

    /// A checker.
    /// - Throws: ``InputFileError`` (exit 65) when a library would refuse a configuration the check depends on
    ///   (``TrustKitLaunchFailure``: any of the checked library's material, an Info.plist's configuration whatever
    ///   the library, since it is loaded at launch), or when the library has no configuration in the material
    ///   (``PinningLibrary/missingMaterial(_:)``).
    package init(
        policy: PinPolicy, pins: LoadedPins, pinsPath: String, caFiles: [String] = [], useSystemStore: Bool = true,
        warnDays: Int = 30, now: Date = Date()
    ) throws {
        let refused = pins.trustKitRefusals.filter { $0.inInfoPlist || $0.library == policy.library }
        if let error = TrustKitLaunchFailure.error(refused) { throw error }
        if let missing = PinningLibraries.named(policy.library)?.missingMaterial(pins.appPins) {
            throw InputFileError(file: pinsPath, reason: missing)
        }
        self.policy = policy
        self.pins = pins
        self.caFiles = caFiles
        self.useSystemStore = useSystemStore
        self.warnDays = warnDays
        self.now = now
    }

    /// Evaluates one policy for a served chain, with a path builder over that chain.
    package func evaluate(
        _ policy: PinPolicy, host: String, served: [CertificateFacts], builder: some TrustPathBuilding
    )
        -> PinEvaluation
    {
        policy.evaluate(
            PinConnection(host: host, served: served, now: now, warnDays: warnDays), pins: pins.appPins,
            builder: builder)
    }

    /// The result for one served chain: the policy, and with relaxations the release policy and the risks.
    /// - Parameter fetched: issuers the scan fetched from the chain's caIssuers URLs (part of SSL-policy paths).
    /// - Throws: ``ProbeFailure`` when a served certificate or a CA file cannot be read.
    package func result(
        target: String, host: String, port: Int, address: String?, served: [CertificateFacts],
        fetched: [CertificateFacts] = []
    ) throws -> PinCheckResult {
        let builder = try OpenSSLTrustPathBuilder(
            served: served, caFiles: caFiles, useSystemStore: useSystemStore, source: trustSource, now: now,
            fetched: fetched)
        let judgement = PinJudge.judge(
            policy, pins: pins.appPins,
            connection: PinConnection(host: host, served: served, now: now, warnDays: warnDays), builder: builder)
        return PinCheckResult(
            target: target, host: host, port: port, address: address, status: .completed, error: nil,
            served: Self.entries(served), evaluation: judgement.evaluation, release: judgement.release,
            risks: judgement.risks)
    }

    /// Probes each target (through `pipeline`) and evaluates its served chain. An ATS-only pipeline (the
    /// default of `pins check`) is enough: the served chain comes from its lead handshake; the report then
    /// says so (``PinCheckReport/scope``).
    ///
    /// > Warning: Connects to every target.
    package func check(_ targets: [Target], pipeline: ScanPipeline) async -> PinCheckReport {
        let profiles = await pipeline.probe(targets)
        let results = profiles.map { profile -> PinCheckResult in
            let failed = PinCheckResult(
                target: profile.target, host: profile.host, port: profile.port, address: profile.address,
                status: profile.status == .completed ? .error : profile.status, error: profile.error)
            guard profile.status == .completed, let chain = profile.certificate?.chain, !chain.isEmpty else {
                var r = failed
                if r.error == nil { r.error = "the server sent no certificate" }
                return r
            }
            do {
                return try result(
                    target: profile.target, host: profile.host, port: profile.port, address: profile.address,
                    served: chain, fetched: profile.certificate?.fetchedIssuerCertificates ?? [])
            } catch {
                var r = failed
                r.error = "\(error)"
                return r
            }
        }
        var report = PinCheckReport(
            library: policy.library, pinFiles: pins.files, results: results, findings: pins.findings)
        if pipeline.settings.scope == .atsOnly { report.scope = ProbeScope.atsOnly.rawValue }
        return report
    }

    /// The served chain as path entries (every one sent by the server).
    static func entries(_ chain: [CertificateFacts]) -> [PinPathEntry] {
        chain.enumerated().map { i, c in
            PinPathEntry(
                position: i, role: i == 0 ? "leaf" : "intermediate", subject: c.subject, issuer: c.issuer,
                spkiSHA256: c.spkiSHA256, sha256: c.sha256, notAfter: c.notAfter, sentByServer: true)
        }
    }
}
