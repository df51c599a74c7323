import Foundation
import TLSModel

/// Renders a ``ScanReport`` as SARIF 2.1.0, the format GitHub code scanning and other CI tools read.
///
/// One run, one result per plist finding (located at the plist line), per ATS violation of each
/// failing endpoint and per endpoint that could not be scanned (located at the endpoint file line
/// when the endpoint came from a file, and always with a logical location naming the target).
public enum SARIFRenderer {
    /// The schema the output declares (the OASIS 2.1.0 errata 01 schema; a copy is in `docs/`).
    public static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// Renders the report.
    /// - Parameters:
    ///   - report: The report to render.
    ///   - plistFile: The plist findings point at when a finding names no file.
    ///   - endpointsFile: The endpoint list endpoint results point at when an endpoint has no `source`.
    ///   - ruleDescriptions: One-line descriptions that replace the catalogue's title (``RuleCatalogue``) for
    ///     the given ids, or describe ids the catalogue does not know.
    /// - Returns: Pretty-printed SARIF JSON, with sorted keys so output is stable.
    /// - Throws: An `EncodingError` if encoding fails (it does not for well-formed reports).
    public static func render(
        _ report: ScanReport, plistFile: String?, endpointsFile: String?, ruleDescriptions: [String: String] = [:]
    ) throws -> String {
        var builder = ResultBuilder(descriptions: ruleDescriptions)
        for finding in report.findings {
            builder.add(finding: finding, plistFile: plistFile)
        }
        for endpoint in report.endpoints {
            builder.add(endpoint: endpoint, endpointsFile: endpointsFile)
        }
        let log = SARIFLog(
            schema: schemaURI, version: "2.1.0",
            runs: [
                SARIFRun(
                    tool: .init(
                        driver: .init(
                            name: report.tool.name, version: report.tool.version,
                            informationUri: RuleCatalogue.informationURL, rules: builder.rules)),
                    results: builder.results,
                    columnKind: "unicodeCodePoints")
            ])
        return try JSONRendering.render(log)
    }

    /// The key of atscheck's fingerprint in each result's `partialFingerprints` (versioned: a change to what the
    /// fingerprint hashes gets a new key, so old alerts are not matched against new fingerprints).
    public static let fingerprintKey = "atscheck/v1"

    /// Maps a finding severity to a SARIF level.
    static func level(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// A path as a SARIF URI reference (relative paths stay relative).
    static func uri(_ path: String) -> String {
        path.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? path
    }
}

/// Gathers results and the rules they use, in order of first use.
struct ResultBuilder {
    let descriptions: [String: String]
    private(set) var rules: [SARIFRule] = []
    private(set) var results: [SARIFResult] = []
    private var ruleIndex: [RuleID: Int] = [:]

    init(descriptions: [String: String]) { self.descriptions = descriptions }

    /// The rule's index in `rules`, adding it on first use: title, help, usual severity and documentation
    /// from the catalogue; an id the catalogue does not know gets its first level and a placeholder text.
    private mutating func index(of rule: RuleID, level: String) -> Int {
        if let i = ruleIndex[rule] { return i }
        let entry = rule.descriptor
        let text = descriptions[rule.rawValue] ?? entry?.title ?? "atscheck rule \(rule)."
        rules.append(
            SARIFRule(
                id: rule.rawValue, shortDescription: .init(text: text),
                fullDescription: entry.map { .init(text: $0.help) }, help: entry.map { .init(text: $0.help) },
                defaultConfiguration: .init(level: entry.map { SARIFRenderer.level($0.severity) } ?? level),
                helpUri: entry?.helpURI))
        ruleIndex[rule] = rules.count - 1
        return rules.count - 1
    }

    mutating func add(finding: Finding, plistFile: String?) {
        let level = SARIFRenderer.level(finding.severity)
        let i = index(of: finding.rule, level: level)
        var location = SARIFLocation()
        if let file = finding.file ?? plistFile {
            location.physicalLocation = .init(
                artifactLocation: .init(uri: SARIFRenderer.uri(file)),
                region: finding.line.flatMap { $0 > 0 ? SARIFRegion(startLine: $0) : nil })
        }
        if let keyPath = finding.keyPath {
            location.logicalLocations = [
                .init(
                    name: keyPath.split(separator: ".").last.map(String.init), fullyQualifiedName: keyPath,
                    kind: "property")
            ]
        }
        let fingerprint = Fingerprint.of(
            rule: finding.rule, file: finding.file ?? plistFile, subject: finding.keyPath, message: finding.message)
        results.append(
            SARIFResult(
                ruleId: finding.rule.rawValue, ruleIndex: i, level: level, message: .init(text: finding.message),
                locations: location.isEmpty ? [] : [location],
                partialFingerprints: [SARIFRenderer.fingerprintKey: fingerprint]))
    }

    mutating func add(endpoint: EndpointResult, endpointsFile: String?) {
        let profile = endpoint.profile
        let target = profile.target
        var location = SARIFLocation()
        let file = endpoint.source?.file ?? endpointsFile
        if let file {
            location.physicalLocation = .init(
                artifactLocation: .init(uri: SARIFRenderer.uri(file)),
                region: endpoint.source?.line.flatMap { $0 > 0 ? SARIFRegion(startLine: $0) : nil })
        }
        location.logicalLocations = [.init(name: target, fullyQualifiedName: target, kind: "resource")]

        func emit(_ rule: RuleID, _ level: String, _ text: String) {
            let i = index(of: rule, level: level)
            let fingerprint = Fingerprint.of(rule: rule, file: file, subject: target, message: text)
            results.append(
                SARIFResult(
                    ruleId: rule.rawValue, ruleIndex: i, level: level, message: .init(text: text),
                    locations: [location],
                    partialFingerprints: [SARIFRenderer.fingerprintKey: fingerprint]))
        }

        if let scanRule = RuleID.Scan.id(for: profile.status) {
            let reason = profile.error.map { ": \($0)" } ?? ""
            emit(scanRule, "warning", "\(target) could not be scanned (\(profile.status.rawValue))\(reason)")
            return
        }
        let ats = endpoint.ats
        switch ats.verdict {
        case .pass:
            return
        case .fail:
            if ats.violations.isEmpty {
                emit(RuleID.ATS.fail, "error", "\(target) fails App Transport Security")
            }
            for violation in ats.violations {
                emit(violation.rule, "error", Self.text(violation, target: target))
            }
        case .ambiguous:
            let readings = ats.readings.map { "\($0.name): \($0.verdict.rawValue)" }.joined(separator: "; ")
            emit(
                RuleID.ATS.ambiguous, "warning",
                "\(target): the ATS verdict depends on a conflicting Apple rule (\(readings))")
            for violation in ats.violations {
                emit(violation.rule, "warning", Self.text(violation, target: target))
            }
        case .unknown:
            let notes = ats.notes.isEmpty ? "" : ": " + ats.notes.joined(separator: "; ")
            emit(RuleID.ATS.unknown, "note", "\(target): ATS verdict unknown\(notes)")
        }
    }

    static func text(_ violation: ATSViolation, target: String) -> String {
        var text = "\(target): \(violation.message)"
        if let keyPath = violation.keyPath { text += " (relaxed by \(keyPath))" }
        return text
    }
}
