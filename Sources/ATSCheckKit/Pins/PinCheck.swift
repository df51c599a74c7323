import Foundation
import Pinning
import TLSModel

/// The pinning policy `atscheck pins check` evaluates: a library and its options.
public enum PinPolicy: Sendable, Equatable {
    /// `AFSecurityPolicy` with its properties.
    case afnetworking(AFSecurityPolicyOptions)
    /// TrustKit, configured by the pin set.
    case trustkit(TrustKitOptions)
    /// An Alamofire 5 evaluator.
    case alamofire(AlamofireEvaluator)
    /// ATS `NSPinnedDomains`.
    case nspinneddomains

    /// The library.
    public var library: PinLibrary {
        switch self {
        case .afnetworking: return .afnetworking
        case .trustkit: return .trustkit
        case .alamofire: return .alamofire
        case .nspinneddomains: return .nspinneddomains
        }
    }

    /// The same mode without relaxations (the release build), or nil when nothing is relaxed.
    public var release: PinPolicy? {
        switch self {
        case .afnetworking(let options): return options.isRelaxed ? .afnetworking(options.release) : nil
        case .alamofire(let evaluator):
            switch evaluator {
            case .pinnedCertificates(let selfSigned, let d, let h) where selfSigned || !d || !h: return .alamofire(.pinnedCertificates())
            case .publicKeys(let d, let h) where !d || !h: return .alamofire(.publicKeys())
            case .defaultTrust(false): return .alamofire(.defaultTrust())
            case .revocation(let d, let h, let o) where !d || !h: return .alamofire(.revocation(options: o))
            default: return nil
            }
        case .trustkit, .nspinneddomains: return nil
        }
    }
}

/// Evaluates pinning policies against served chains: the facade of `atscheck pins check`.
public struct PinChecker: Sendable {
    /// The policy the options describe.
    public var policy: PinPolicy
    /// The pin material.
    public var pins: LoadedPins
    /// `--ca-file` roots.
    public var caFiles: [String]
    /// Whether this machine's trust store counts (tests turn it off to stay independent of it).
    public var useSystemStore: Bool
    /// `--warn-days`.
    public var warnDays: Int
    /// The evaluation time.
    public var now: Date

    /// A checker.
    /// - Throws: ``InputFileError`` (exit 65) when TrustKit or NSPinnedDomains has no configuration in the material.
    public init(
        policy: PinPolicy, pins: LoadedPins, pinsPath: String, caFiles: [String] = [], useSystemStore: Bool = true,
        warnDays: Int = 30, now: Date = Date()
    ) throws {
        switch policy {
        case .trustkit where pins.pinSet == nil:
            throw InputFileError(file: pinsPath, reason: "no pin set for TrustKit: give a pin-set file (.json, .yaml) or an Info.plist with TSKConfiguration")
        case .nspinneddomains where pins.pinnedDomainsConfiguration == nil:
            throw InputFileError(file: pinsPath, reason: "no NSPinnedDomains: give an Info.plist with NSAppTransportSecurity.NSPinnedDomains or a pin-set file")
        default: break
        }
        self.policy = policy
        self.pins = pins
        self.caFiles = caFiles
        self.useSystemStore = useSystemStore
        self.warnDays = warnDays
        self.now = now
    }

    /// Evaluates one policy for a served chain, with a path builder over that chain.
    public func evaluate(_ policy: PinPolicy, host: String, served: [CertificateFacts], builder: some TrustPathBuilding) -> PinEvaluation {
        let connection = PinConnection(host: host, served: served, now: now, warnDays: warnDays)
        switch policy {
        case .afnetworking(let options):
            return AFSecurityPolicyEvaluator.evaluate(connection, pinnedCertificates: pins.bundledCertificates, options: options, builder: builder)
        case .trustkit(let options):
            return TrustKitEvaluator.evaluate(connection, pinSet: pins.pinSet ?? PinSet(domains: [:]), options: options, builder: builder)
        case .alamofire(let evaluator):
            return AlamofireTrustEvaluation.evaluate(connection, evaluator: evaluator, pinnedCertificates: pins.bundledCertificates, builder: builder)
        case .nspinneddomains:
            return PinnedDomainsEvaluator.evaluate(
                connection, configuration: pins.pinnedDomainsConfiguration ?? PinnedDomainsConfiguration(domains: [:]), builder: builder)
        }
    }

    /// The result for one served chain: the policy, and with relaxations the release policy and the risks.
    /// - Throws: ``ProbeFailure`` when a served certificate or a CA file cannot be read.
    public func result(target: String, host: String, port: Int, address: String?, served: [CertificateFacts]) throws -> PinCheckResult {
        let builder = try OpenSSLTrustPathBuilder(served: served, caFiles: caFiles, useSystemStore: useSystemStore, now: now)
        let evaluation = evaluate(policy, host: host, served: served, builder: builder)
        var release: PinEvaluation?
        var risks: [Finding] = []
        if let releasePolicy = policy.release {
            let r = evaluate(releasePolicy, host: host, served: served, builder: builder)
            release = r
            if case .afnetworking(let options) = policy {
                risks = DebugReleaseComparison.risks(options, pinnedCertificates: pins.bundledCertificates, debug: evaluation, release: r)
            } else if evaluation.verdict == .accept && r.verdict == .reject {
                let why = r.findings.first { $0.rule == RuleID.Pins.rejected }?.message ?? r.result
                risks.append(Finding(
                    rule: RuleID.Pins.debugReleaseDiffers, severity: RuleID.Pins.debugReleaseDiffers.descriptor?.severity ?? .warning,
                    message: "the relaxed evaluator accepts \(host) but the default one rejects it (\(why)): tests with the relaxed build prove nothing about release"))
            }
        }
        return PinCheckResult(
            target: target, host: host, port: port, address: address, status: .completed, error: nil,
            served: Self.entries(served), evaluation: evaluation, release: release, risks: risks)
    }

    /// Probes each target (through `pipeline`) and evaluates its served chain. An ATS-only pipeline (the
    /// default of `pins check`) is enough: the served chain comes from its lead handshake; the report then
    /// says so (``PinCheckReport/scope``).
    ///
    /// > Warning: Connects to every target.
    public func check(_ targets: [Target], pipeline: ScanPipeline) async -> PinCheckReport {
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
                return try result(target: profile.target, host: profile.host, port: profile.port, address: profile.address, served: chain)
            } catch {
                var r = failed
                r.error = "\(error)"
                return r
            }
        }
        var report = PinCheckReport(library: policy.library, pinFiles: pins.files, results: results, findings: pins.findings)
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

extension ExitStatus {
    /// The exit status of a pin check: 1 when a policy rejects a target, else 2 when a target could not be
    /// read, else 0.
    public static func of(_ report: PinCheckReport) -> ExitStatus {
        if report.summary.rejected > 0 { return .policyFailure }
        return report.summary.unreachable > 0 ? .incomplete : .success
    }

    /// A one-line reason for a non-zero pin-check status, for stderr.
    public static func reason(for report: PinCheckReport) -> String? {
        switch of(report) {
        case .policyFailure:
            let rejected = report.results.filter { $0.evaluation?.verdict == .reject }.map(\.target)
            return "atscheck: the \(report.library.rawValue) policy rejects \(rejected.count) target(s): \(rejected.prefix(5).joined(separator: ", "))"
        case .incomplete:
            let bad = report.results.filter { $0.evaluation == nil }
            return "atscheck: \(bad.count) target(s) could not be checked (first: \(bad.first.map { "\($0.target): \($0.error ?? $0.status.rawValue)" } ?? ""))"
        default: return nil
        }
    }
}
