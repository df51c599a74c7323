import ATSCheckKit
import Foundation
import TLSModel

@testable import Reporting

// The renderers take the rule catalogue as a value (this module sees no registry); these tests render with the
// whole catalogue the CLI hands them, `RuleCatalogue.atscheck`, through the overloads below.

extension RenderOptions {
    /// Options with the whole catalogue.
    init(color: Bool = false, now: Date = Date(), width: Int = TextLayout.defaultWidth) {
        self.init(catalogue: .atscheck, color: color, now: now, width: width)
    }
}

extension ReportRendererRegistry {
    /// Renders with the whole catalogue.
    func render(_ document: some ReportDocument, as format: OutputFormat) throws -> String {
        try render(document, as: format, options: RenderOptions())
    }

    /// The output with the whole catalogue.
    func output(_ document: some ReportDocument, as format: OutputFormat) throws -> RenderedReport {
        try output(document, as: format, options: RenderOptions())
    }
}

extension ScanTextRenderer {
    /// A renderer with the whole catalogue.
    init(style: TextStyle = .plain, now: Date = Date(), width: Int = TextLayout.defaultWidth) {
        self.init(catalogue: .atscheck, style: style, now: now, width: width)
    }

    static func summary(_ report: ScanReport) -> String { summary(report, catalogue: .atscheck) }
}

extension ReportIssues {
    static func of(_ report: ScanReport, plistFile: String? = nil, endpointsFile: String? = nil) -> [ReportIssue] {
        of(report, catalogue: .atscheck, plistFile: plistFile, endpointsFile: endpointsFile)
    }
}

extension SARIFRenderer {
    static func render(
        _ report: ScanReport, sources: ReportSources, ruleDescriptions: [String: String] = [:]
    ) throws -> String {
        try render(report, catalogue: .atscheck, sources: sources, ruleDescriptions: ruleDescriptions)
    }

    static func render(
        _ report: ScanReport, plistFile: String?, endpointsFile: String?, ruleDescriptions: [String: String] = [:]
    ) throws -> String {
        try render(
            report, catalogue: .atscheck, plistFile: plistFile, endpointsFile: endpointsFile,
            ruleDescriptions: ruleDescriptions)
    }
}

extension CodeClimateRenderer {
    static func render(_ report: ScanReport, sources: ReportSources) throws -> String {
        try render(report, catalogue: .atscheck, sources: sources)
    }

    static func render(_ report: ScanReport, plistFile: String? = nil, endpointsFile: String? = nil) throws -> String {
        try render(report, catalogue: .atscheck, plistFile: plistFile, endpointsFile: endpointsFile)
    }
}

extension GitHubRenderer {
    static func render(_ report: ScanReport, plistFile: String? = nil, endpointsFile: String? = nil) -> String {
        render(report, catalogue: .atscheck, plistFile: plistFile, endpointsFile: endpointsFile)
    }
}

extension MarkdownRenderer {
    static func render(_ report: ScanReport) -> String { render(report, catalogue: .atscheck) }
    static func summaryLine(_ report: ScanReport) -> String { summaryLine(report, catalogue: .atscheck) }
    static func source(of issue: ReportIssue) -> String { source(of: issue, catalogue: .atscheck) }
}

extension JUnitRenderer {
    static func render(_ report: ScanReport) -> String { render(report, catalogue: .atscheck) }
}

extension PinsFormats {
    static func junit(_ report: PinCheckReport) -> String { junit(report, catalogue: .atscheck) }

    static func sarif(_ report: PinCheckReport, sources: ReportSources = ReportSources()) throws -> String {
        try sarif(report, catalogue: .atscheck, sources: sources)
    }
}
