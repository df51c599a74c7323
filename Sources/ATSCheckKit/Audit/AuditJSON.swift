import Foundation
import Judging
import Reporting
import TLSModel

/// The audit's JSON: the report of the contract (schemaVersion, endpoints, findings, summary) with
/// `exceptionDebt` and the pin evaluations (`pins`, ``AuditPinCheck``) beside it, `policy: "default"` when
/// no plist was given, and for a shard (`audit --shard`) `auditShard` (``AuditShardInputs``) beside `shard`.
///
/// The shape is the JSON of the audit's report document (``AuditDocument``); this wrapper serves callers that
/// encode an audit without rendering it (shard files in tests).
package struct AuditJSON: Encodable, Sendable {
    /// The audit to encode.
    package var result: AuditResult
    /// `default` when the endpoints were judged under the default ATS policy (no `--plist`); nil: not written.
    package var policy: String?

    package init(result: AuditResult, policy: String? = nil) {
        self.result = result
        self.policy = policy
    }

    package func encode(to encoder: Encoder) throws {
        let section = result.section(judgedUnderDefaultPolicy: policy == "default")
        try AuditDocument(report: result.report, audit: section).encode(to: encoder)
    }
}

extension AuditResult {
    /// The exception debt, pin checks and shard inputs as the report document's audit section.
    /// - Parameter judgedUnderDefaultPolicy: true when no plist was given.
    /// - Returns: the section.
    package func section(judgedUnderDefaultPolicy: Bool) -> AuditSection {
        AuditSection(
            exceptionDebt: exceptionDebt, pins: pins, judgedUnderDefaultPolicy: judgedUnderDefaultPolicy,
            shardInputs: shardInputs)
    }
}
