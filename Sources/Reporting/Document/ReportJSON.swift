import TLSModel

/// The JSON of a ``ReportDocument``: the one definition of each command's top-level shape (docs/json-output.md).
///
/// - `scan`, `plist`, `merge`: the report (schemaVersion, endpoints, findings, summary);
/// - `audit`: the report with `exceptionDebt`, `pins`, `policy` (`default` without a plist) and, for a shard,
///   `auditShard` beside it;
/// - `app`: the report with `app` and, live, `live` beside it;
/// - `diagnose`: the ``DiagnosticsReport`` with `findings` beside it;
/// - `pins check`, `pins extract`: their reports;
/// - `cert`: the report, with `pinCheck` (a `pins check` report) beside it when one library decided;
/// - `plist --explain`: the explanation, or an array of them for several plists;
/// - `rules`: `{"rules": [...]}`.
public struct ReportJSON: Encodable, Sendable {
    /// The document to encode.
    public var document: ReportDocument

    /// - Parameter document: the document to encode.
    public init(_ document: ReportDocument) { self.document = document }

    private enum AuditKeys: String, CodingKey { case exceptionDebt, pins, policy, auditShard }
    private enum CertKeys: String, CodingKey { case pinCheck }
    private enum DiagnosisKeys: String, CodingKey { case findings }
    private enum TrustDataKeys: String, CodingKey { case trustData }

    /// Encodes the command's shape: a standalone section alone, else the report with the sections beside it.
    public func encode(to encoder: Encoder) throws {
        if let rules = document.rules {
            let catalogue = RuleCatalogueRenderer.Document(rules: rules.map(RuleCatalogueRenderer.Entry.init))
            return try catalogue.encode(to: encoder)
        }
        if let explanations = document.explanations {
            let values = explanations.map(\.explanation)
            return values.count == 1 ? try values[0].encode(to: encoder) : try values.encode(to: encoder)
        }
        // The reports without a scan report name the run's trust data beside their own fields.
        func trustData() throws {
            var container = encoder.container(keyedBy: TrustDataKeys.self)
            try container.encodeIfPresent(document.trustData, forKey: .trustData)
        }
        if let extract = document.pinExtract {
            try extract.encode(to: encoder)
            return try trustData()
        }
        if let pins = document.pins, document.scan == nil {
            try pins.encode(to: encoder)
            return try trustData()
        }
        if let diagnosis = document.diagnosis {
            try diagnosis.report.encode(to: encoder)
            var container = encoder.container(keyedBy: DiagnosisKeys.self)
            try container.encode(diagnosis.findings, forKey: .findings)
            return try trustData()
        }
        try document.scan?.encode(to: encoder)
        try document.app?.encode(to: encoder)
        if let pins = document.pins {  // `cert --pins` with one library: its pin check beside the report
            var container = encoder.container(keyedBy: CertKeys.self)
            try container.encode(pins, forKey: .pinCheck)
        }
        if let audit = document.audit {
            var container = encoder.container(keyedBy: AuditKeys.self)
            try container.encode(audit.exceptionDebt, forKey: .exceptionDebt)
            try container.encodeIfPresent(audit.judgedUnderDefaultPolicy ? "default" : nil, forKey: .policy)
            try container.encode(audit.pins, forKey: .pins)
            if let inputs = audit.shardInputs { try container.encode(inputs, forKey: .auditShard) }
        }
    }
}
