import ATSPolicy
import Foundation
import Judging
import Pinning
import TLSModel

/// The pin checks of `atscheck audit` (issue 9, "Pins in the CI gate"): the plist's `NSPinnedDomains` against
/// each covered endpoint's live path, and the pin check an endpoint-list entry names (`pins:`, `library:`).
///
/// A rejection is an error finding (`pins.rejected`) at the plist line of the pinned-domain key, or at the
/// entry's line; the evaluator's other findings (outage warnings, debug risks) are at most warnings there, so
/// that, as with `atscheck pins check`, only the verdict fails the run. A pinned domain that covers no listed
/// `https` endpoint is a note (`audit.pinned-domain.no-endpoint`).
package struct AuditPins {
    /// The plist's `NSPinnedDomains` and the check of it (shared with `scan --plist`); nil when it has none.
    var plistCheck: PinnedDomainsCheck?
    /// The plist's `NSPinnedDomains`; nil when it has none.
    package var pinnedDomains: PinnedDomainsConfiguration? { plistCheck?.configuration }
    /// Per entry index, the checker of the entry's pin check.
    package internal(set) var entryCheckers: [Int: PinChecker] = [:]
    /// Findings about the pin material the entries name (PEM in a `.cer`, a pin set TrustKit refuses), for the
    /// libraries they concern, once per file and library.
    package internal(set) var materialFindings: [Finding] = []
    var caFiles: [String]
    var useSystemStore: Bool
    var trustSource: TrustStoreSource
    var now: Date

    /// Reads the pin material every entry names and builds its checker; nothing is scanned.
    /// - Throws: ``InputFileError`` (exit 65) for a missing or malformed pin file, or material without the
    ///   configuration the library needs (TrustKit without a pin set).
    package static func prepare(
        document: PlistDocument, entries: [EndpointEntry], settings: ScanSettings, now: Date
    ) throws -> AuditPins {
        var pins = AuditPins(
            plistCheck: PinnedDomainsCheck(
                document: document, useSystemStore: settings.useSystemTrustStore, trustSource: settings.trustSource,
                now: now),
            caFiles: settings.caFiles, useSystemStore: settings.useSystemTrustStore, trustSource: settings.trustSource,
            now: now)
        var loaded: [String: LoadedPins] = [:]
        var reported: Set<String> = []
        for (index, entry) in entries.enumerated() {
            guard let check = entry.pinCheck, !entry.isHTTP else { continue }
            let material = try loaded[check.pins] ?? PinMaterialLoader.load(check.pins)
            loaded[check.pins] = material
            let library = check.options.library
            if reported.insert("\(library.rawValue) \(check.pins)").inserted {
                pins.materialFindings += material.findings.filter { PinningLibraries.concerns($0.rule, library) }
            }
            pins.entryCheckers[index] = try PinChecker(
                policy: check.options.policy, pins: material, pinsPath: check.pins, caFiles: pins.anchors(for: entry),
                useSystemStore: settings.useSystemTrustStore, now: now)
            pins.entryCheckers[index]?.trustSource = settings.trustSource
        }
        return pins
    }

    /// `--ca-file` plus the entry's own `caFile`: the anchors its scan used.
    func anchors(for entry: EndpointEntry) -> [String] { caFiles + [entry.caFile].compactMap { $0 } }

    /// What ``evaluate(_:document:)`` found.
    struct Outcome {
        /// The findings, material first, in list order.
        var findings: [Finding]
        /// The evaluations, in list order.
        var checks: [AuditPinCheck]
        /// The `NSPinnedDomains` rejections (errors, not `expect: fail` notes) by endpoint index: they decide those
        /// endpoints' ATS verdicts (``ATSEvaluation/fail(byPinRejections:)``).
        var pinnedDomainsRejections: [Int: [Finding]] = [:]

        /// Fails the rejected endpoints of `report` (whose endpoints are the evaluated ones, in the same order) and
        /// counts its summary again.
        func failRejected(in report: inout ScanReport) {
            guard !pinnedDomainsRejections.isEmpty else { return }
            for (index, rejections) in pinnedDomainsRejections where report.endpoints.indices.contains(index) {
                report.endpoints[index].ats.fail(byPinRejections: rejections)
            }
            report.summary = ReportSummary(endpoints: report.endpoints)
        }
    }

    /// Evaluates every covered endpoint with a served chain.
    /// - Returns: the findings (material first), the evaluations, in list order, and the rejections that decide
    ///   endpoints' verdicts.
    func evaluate(_ endpoints: [Auditor.Endpoint], document: PlistDocument) -> Outcome {
        var findings = materialFindings
        var checks: [AuditPinCheck] = []
        var rejections: [Int: [Finding]] = [:]
        var covered: Set<String> = []
        for (index, endpoint) in endpoints.enumerated() where !endpoint.entry.isHTTP {
            let host = endpoint.entry.target.host
            if let plistCheck, let applicable = plistCheck.applicable(host: host) {
                covered.formUnion(applicable.domains)
                if let check = plistCheck.check(
                    endpoint: endpoint.entry.target.hostPort, host: host, profile: endpoint.profile,
                    anchors: anchors(for: endpoint.entry))
                {
                    checks.append(check)
                    let found = PinnedDomainsJudge.findings(of: check, expectFail: endpoint.entry.expect == .fail)
                    findings += found
                    let rejected = found.filter(\.isPinRejection)
                    if !rejected.isEmpty { rejections[index] = rejected }
                }
            }
            if let checker = entryCheckers[index], let pinCheck = endpoint.entry.pinCheck,
                let result = Self.result(endpoint, checker: checker)
            {
                let check = AuditPinCheck(
                    origin: .endpointList, endpoint: endpoint.entry.target.hostPort, library: checker.policy.library,
                    pins: pinCheck.pins, pinFiles: checker.pins.files, source: endpoint.entry.source, result: result)
                checks.append(check)
                findings += PinFindings.ofEntry(check)
            }
        }
        if let plistCheck {
            findings += PinnedDomainsJudge.uncovered(
                plistCheck.configuration, covered: covered, file: document.file, lines: plistCheck.lines)
        }
        return Outcome(findings: findings, checks: checks, pinnedDomainsRejections: rejections)
    }

    /// The checker's result for the endpoint's served chain; nil when it was not scanned or sent no certificate.
    static func result(_ endpoint: Auditor.Endpoint, checker: PinChecker) -> PinCheckResult? {
        result(endpoint.profile, checker: checker)
    }

    /// The checker's result for a profile's served chain; nil when it was not scanned or sent no certificate.
    static func result(_ profile: ServerProfile, checker: PinChecker) -> PinCheckResult? {
        guard profile.status == .completed, let served = profile.certificate?.chain, !served.isEmpty else { return nil }
        do {
            return try checker.result(
                target: profile.target, host: profile.host, port: profile.port, address: profile.address,
                served: served,
                fetched: profile.certificate?.fetchedIssuerCertificates ?? [])
        } catch {
            return PinCheckResult(
                target: profile.target, host: profile.host, port: profile.port, address: profile.address,
                status: .error,
                error: "\(error)", served: PinChecker.entries(served))
        }
    }
}
