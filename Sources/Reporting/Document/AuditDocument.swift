import TLSModel

/// What `audit` and `merge` of audit shards report: the scan report and, beside it, the audit's exception debt
/// and pin checks (``AuditSection``).
package struct AuditDocument: ReportDocument {
    package static let name = "audit"

    /// The endpoints and findings.
    package var report: ScanReport
    /// The exception debt, pin checks and shard inputs.
    package var audit: AuditSection
    /// The plist and endpoint list results are placed in.
    package var sources: ReportSources

    /// - Parameters:
    ///   - report: the endpoints and findings.
    ///   - audit: the audit's section.
    ///   - sources: the input files.
    package init(report: ScanReport, audit: AuditSection, sources: ReportSources = ReportSources()) {
        self.report = report
        self.audit = audit
        self.sources = sources
    }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.audit }

    private enum Keys: String, CodingKey { case exceptionDebt, pins, policy, auditShard }

    /// The report with `exceptionDebt`, `policy` (`default` without a plist), `pins` and, for a shard,
    /// `auditShard` beside it.
    package func encode(to encoder: Encoder) throws {
        try report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(audit.exceptionDebt, forKey: .exceptionDebt)
        try container.encodeIfPresent(audit.judgedUnderDefaultPolicy ? "default" : nil, forKey: .policy)
        try container.encode(audit.pins, forKey: .pins)
        if let inputs = audit.shardInputs { try container.encode(inputs, forKey: .auditShard) }
    }
}
