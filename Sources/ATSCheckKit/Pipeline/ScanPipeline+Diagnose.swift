import ATSPolicy
import Foundation
import Judging
import Reporting
import TLSModel

/// What `atscheck diagnose` found: the profile it judged, the nscurl matrix, and the exit status.
public struct Diagnosis: Sendable {
    /// The URL as the user gave it (messages name it so).
    public var url: String
    /// The profile the matrix was predicted from.
    public var profile: ServerProfile
    /// The 16 nscurl tests and the minimal exception.
    public var report: DiagnosticsReport
    /// The endpoint judged under the default ATS policy, with the findings (`--warn-days`): what SARIF, JUnit,
    /// Markdown and the other formats of a scan render for `diagnose`.
    public var scanReport: ScanReport

    /// The findings beside the matrix (certificates about to expire).
    public var findings: [Finding] { scanReport.findings }
    /// `diagnose --tls-diagnostics`: what nscurl's TLS diagnostics print, from the scan's simulated client
    /// (``showingTLSDiagnostics(for:)``); nil shows the ATS matrix.
    package var tls: TLSDiagnostics?

    public init(url: String, profile: ServerProfile, report: DiagnosticsReport, scanReport: ScanReport? = nil) {
        self.url = url
        self.profile = profile
        self.report = report
        self.scanReport = scanReport ?? ScanReport(endpoints: [EndpointResult(profile: profile)], findings: [])
    }

    /// `0` the default test passes; `1` it fails or is ambiguous; `2` the URL could not be scanned or predicted.
    /// With ``tls``: `0` the simulated client connects; `1` it fails; `2` nothing was simulated for the release.
    public var exitStatus: ExitStatus {
        guard profile.status == .completed else { return .incomplete }
        if let tls {
            switch tls.result {
            case .pass: return .success
            case .fail: return .policyFailure
            case .notSimulated: return .incomplete
            }
        }
        switch report.tests.first?.result {
        case .pass?: return .success
        case .unknown?, nil: return .incomplete
        default: return .policyFailure
        }
    }

    /// One line for stderr when ``exitStatus`` is not zero.
    public var exitReason: String? {
        guard profile.status == .completed else {
            return "\(profile.target) could not be scanned: \(profile.error ?? profile.status.rawValue)"
        }
        if let tls {
            guard tls.result != .pass else { return nil }
            return "\(url): \(tls.error ?? tls.result.rawValue)"
        }
        switch report.tests.first?.result {
        case .pass?: return nil
        case .unknown?, nil: return "the default ATS test could not be predicted for \(url)"
        default: return "\(url) fails the default ATS test: \(report.tests.first?.reason ?? "")"
        }
    }
}

extension ScanPipeline {
    /// Scans one URL once and predicts nscurl's matrix from that scan; nil if nothing was scanned.
    ///
    /// > Warning: Connects to the target.
    /// - Parameter url: the text the user gave (parsed into `target` already).
    public func diagnose(
        _ target: Target, url: String, for client: ATSClient = .newest
    ) async -> Diagnosis? {
        guard let profile = await probe([target]).first else { return nil }
        return Self.diagnose(
            profile, target: target, url: url, for: client, warnDays: settings.expiryWarningDays,
            now: settings.now ?? Date())
    }

    /// Predicts nscurl's matrix from a profile saved with `scan --save-profile`: the one for the
    /// target's host and port, else the file's first.
    /// - Parameter warnDays: `--warn-days` (``ExpiryWarnings``), nil for none.
    /// - Throws: ``InputFileError`` (exit 65) when the file is unreadable, malformed or empty.
    public static func diagnose(
        _ target: Target, url: String, savedProfile path: String, for client: ATSClient = .newest,
        warnDays: Int? = nil
    ) throws -> Diagnosis {
        let profiles = try ProfileFile.load(path)
        guard let match = profiles.first(where: { $0.host == target.host && $0.port == target.port }) ?? profiles.first
        else {
            throw InputFileError(file: path, line: nil, message: "\(path) holds no profile")
        }
        return diagnose(match, target: target, url: url, for: client, warnDays: warnDays, now: Date())
    }

    static func diagnose(
        _ profile: ServerProfile, target: Target, url: String, for client: ATSClient,
        warnDays: Int? = nil, now: Date = Date()
    ) -> Diagnosis {
        let judged = report([profile], judge: PolicyJudge(for: client)).addingExpiryWarnings(days: warnDays, now: now)
        return Diagnosis(
            url: url, profile: profile, report: ATSDiagnostics.run(profile: profile, target: target, for: client),
            scanReport: judged)
    }
}

extension Diagnosis {
    /// The matrix, the profile and the findings as the report document's diagnosis section (the JSON and the
    /// text of `diagnose`; ``scanReport`` is the document's scan report).
    package var section: DiagnosisSection {
        DiagnosisSection(report: report, profile: profile, findings: findings, tls: tls)
    }

    /// The diagnosis showing what `nscurl --tls-diagnostics` prints instead of the ATS matrix: the scan's simulation
    /// of the URLSession client of the era in force on `os` (``TLSDiagnostics``).
    /// - Parameter os: the release asked for (`--os-version`; the newest by default).
    package func showingTLSDiagnostics(for os: AppleOSVersion) -> Diagnosis {
        var copy = self
        copy.tls = TLSDiagnostics(profile: profile, url: url, osVersion: AppleOSEra.label(os))
        return copy
    }
}
