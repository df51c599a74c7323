import Foundation
import TLSModel

/// Renders a ``ScanReport`` as SARIF 2.1.0, the format GitHub code scanning and other CI tools read.
///
/// One run, one result per problem of ``ReportIssues`` (the list every CI format shares): each plist or input
/// finding, each ATS violation of a failing endpoint, each endpoint that could not be scanned or judged — and for an
/// audit, the audit finding alone, with the endpoint's scan rules as `relatedLocations`. Then the notes of
/// ``EndpointNotes``, which are no problems (no other format counts them), level `note`: whether each endpoint whose
/// TLS 1.3 groups were enumerated accepts a post-quantum hybrid (`info.tls.post-quantum`), and for each endpoint whose
/// Apple clients were simulated one note listing them, era by era (`info.tls.apple-clients`, the clients also in the
/// result's `properties.simulations`), and its quantum-secure readiness (`info.tls.quantum-secure`). Every result has a physical
/// location, as GitHub requires: the input file and line, or the invocation artifact (``ArtifactRoot``); URIs inside
/// the repository are relative to `%SRCROOT%` (declared in `originalUriBaseIds`). Endpoint results also carry a
/// logical location naming the target, findings one naming the plist key path. Rules carry their OWASP MASVS control
/// and MASTG test as tags (``RuleStandards``).
package enum SARIFRenderer {
    /// The schema the output declares (the OASIS 2.1.0 errata 01 schema; a copy is in `docs/`).
    package static let schemaURI =
        "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"

    /// Renders the report.
    /// - Parameters:
    ///   - report: The report to render.
    ///   - catalogue: The rule catalogue rules are described from.
    ///   - sources: The input files results without a file of their own are placed in, and the repository root.
    ///   - ruleDescriptions: One-line descriptions that replace the catalogue's title (``RuleCatalogue``) for
    ///     the given ids, or describe ids the catalogue does not know.
    /// - Returns: Pretty-printed SARIF JSON, with sorted keys so output is stable.
    /// - Throws: An `EncodingError` if encoding fails (it does not for well-formed reports).
    package static func render(
        _ report: ScanReport, catalogue: RuleCatalogue, sources: ReportSources, ruleDescriptions: [String: String] = [:]
    ) throws -> String {
        var builder = ResultBuilder(catalogue: catalogue, descriptions: ruleDescriptions, sources: sources)
        for issue in ReportIssues.of(
            report, catalogue: catalogue, plistFile: sources.plistFile, endpointsFile: sources.endpointsFile)
        {
            builder.add(issue)
        }
        for note in EndpointNotes.of(report, endpointsFile: sources.endpointsFile) { builder.add(note) }
        return try render(builder, tool: report.tool, root: sources.root, partial: report.partial)
    }

    /// Renders the report (the files as separate arguments).
    package static func render(
        _ report: ScanReport, catalogue: RuleCatalogue, plistFile: String?, endpointsFile: String?,
        ruleDescriptions: [String: String] = [:]
    ) throws -> String {
        try render(
            report, catalogue: catalogue, sources: ReportSources(plistFile: plistFile, endpointsFile: endpointsFile),
            ruleDescriptions: ruleDescriptions)
    }

    static func render(
        _ builder: ResultBuilder, tool: ToolInfo, root: ArtifactRoot?, partial: PartialScan? = nil
    ) throws -> String {
        let log = SARIFLog(
            schema: schemaURI, version: "2.1.0",
            runs: [
                SARIFRun(
                    tool: .init(
                        driver: .init(
                            name: tool.name, version: tool.version,
                            informationUri: RuleCatalogue.informationURL, rules: builder.rules)),
                    originalUriBaseIds: root.map { [ArtifactRoot.sourceRootID: .init(uri: $0.sourceRootURI)] },
                    results: builder.results,
                    columnKind: "unicodeCodePoints",
                    invocations: partial.map { partial in
                        [
                            SARIFInvocation(
                                executionSuccessful: false, exitSignalName: partial.signal,
                                toolExecutionNotifications: [
                                    .init(level: "error", message: .init(text: "Partial report: \(partial.summary)."))
                                ])
                        ]
                    },
                    properties: partial.map { SARIFRun.Properties(partial: $0) })
            ])
        return try JSONRendering.render(log)
    }

    /// The key of atscheck's fingerprint in each result's `partialFingerprints` (versioned: a change to what the
    /// fingerprint hashes gets a new key, so old alerts are not matched against new fingerprints).
    package static let fingerprintKey = "atscheck/v1"

    /// Maps a finding severity to a SARIF level.
    static func level(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return "error"
        case .warning: return "warning"
        case .note: return "note"
        }
    }

    /// GitHub's `security-severity` of a rule with a MASVS control, by its usual severity: error → 7.5 (high),
    /// warning → 5.0 (medium), note → 2.0 (low). Rules about atscheck's own inputs have none.
    static func securitySeverity(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return "7.5"
        case .warning: return "5.0"
        case .note: return "2.0"
        }
    }
}

/// Gathers results and the rules they use, in order of first use.
struct ResultBuilder {
    let catalogue: RuleCatalogue
    let descriptions: [String: String]
    let sources: ReportSources
    private(set) var rules: [SARIFRule] = []
    private(set) var results: [SARIFResult] = []
    private var ruleIndex: [RuleID: Int] = [:]

    init(catalogue: RuleCatalogue, descriptions: [String: String], sources: ReportSources = ReportSources()) {
        self.catalogue = catalogue
        self.descriptions = descriptions
        self.sources = sources
    }

    /// The rule's index in `rules`, adding it on first use: title, help, usual severity, documentation and standards
    /// from the catalogue; an id the catalogue does not know gets its first level and a placeholder text.
    mutating func index(of rule: RuleID, level: String) -> Int {
        if let i = ruleIndex[rule] { return i }
        let entry = catalogue.descriptor(for: rule)
        let text = descriptions[rule.rawValue] ?? entry?.title ?? "atscheck rule \(rule)."
        var properties: SARIFRule.Properties?
        if let entry {
            let standards = entry.standards
            properties = SARIFRule.Properties(
                tags: (standards.tags.isEmpty ? [] : ["security"]) + standards.tags + [entry.family.rawValue],
                masvs: standards.masvs.isEmpty ? nil : standards.masvs,
                mastg: standards.mastg.isEmpty ? nil : standards.mastg,
                securitySeverity: standards.masvs.isEmpty ? nil : SARIFRenderer.securitySeverity(entry.severity))
        }
        rules.append(
            SARIFRule(
                id: rule.rawValue, shortDescription: .init(text: text),
                fullDescription: entry.map { .init(text: $0.help) }, help: entry.map { .init(text: $0.help) },
                defaultConfiguration: .init(level: entry.map { SARIFRenderer.level($0.severity) } ?? level),
                helpUri: entry?.helpURI, properties: properties))
        ruleIndex[rule] = rules.count - 1
        return rules.count - 1
    }

    /// The physical location of a file and line: repository-relative when the file is in the repository.
    func physical(_ file: String?, line: Int?) -> SARIFLocation.PhysicalLocation {
        let artifact: SARIFLocation.ArtifactLocation
        if let file {
            if let root = sources.root {
                let (uri, base) = root.location(of: file)
                artifact = .init(uri: uri, uriBaseId: base)
            } else if file.hasPrefix("/") {
                artifact = .init(uri: "file://" + ArtifactRoot.encoded(file), uriBaseId: nil)
            } else {
                artifact = .init(uri: ArtifactRoot.encoded(file), uriBaseId: ArtifactRoot.sourceRootID)
            }
            return .init(artifactLocation: artifact, region: line.map { SARIFRegion(startLine: $0) })
        }
        let invocation = sources.root?.invocationArtifact ?? ArtifactRoot.defaultInvocationArtifact
        return .init(
            artifactLocation: .init(uri: ArtifactRoot.encoded(invocation), uriBaseId: ArtifactRoot.sourceRootID),
            region: SARIFRegion(startLine: 1))
    }

    mutating func add(_ issue: ReportIssue) {
        let level = SARIFRenderer.level(issue.severity)
        let i = index(of: issue.rule, level: level)
        let file =
            issue.file ?? (issue.endpoint != nil ? sources.endpointsFile ?? sources.plistFile : sources.plistFile)
        var location = SARIFLocation(physicalLocation: physical(file, line: file == nil ? nil : issue.line))
        switch issue.about {
        case .keyPath(let keyPath):
            // The last key, from the keys when known: `example.com`, not `com`, for a domain key with dots.
            let name = issue.keyPathComponents?.last ?? keyPath.split(separator: ".").last.map(String.init)
            location.logicalLocations = [.init(name: name, fullyQualifiedName: keyPath, kind: "property")]
        case .target(let target):
            location.logicalLocations = [.init(name: target, fullyQualifiedName: target, kind: "resource")]
        case .none:
            break
        }
        var related: [SARIFLocation]?
        if !issue.related.isEmpty {
            related = issue.related.enumerated().map { n, r in
                var place = SARIFLocation(physicalLocation: location.physicalLocation)
                place.id = n + 1
                place.message = .init(text: "\(r.message) [\(r.rule)]")
                return place
            }
        }
        results.append(
            SARIFResult(
                ruleId: issue.rule.rawValue, ruleIndex: i, level: level, message: .init(text: issue.message),
                locations: [location], relatedLocations: related,
                partialFingerprints: [SARIFRenderer.fingerprintKey: issue.fingerprint],
                properties: issue.keyPathComponents == nil && issue.simulations == nil
                    ? nil
                    : SARIFResult.Properties(keyPathComponents: issue.keyPathComponents, simulations: issue.simulations)
            ))
    }
}
