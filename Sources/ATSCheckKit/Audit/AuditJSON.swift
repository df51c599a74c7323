import Foundation
import TLSModel

/// The audit's JSON: the report of the contract (schemaVersion, endpoints, findings, summary) with
/// `exceptionDebt` and the pin evaluations (`pins`, ``AuditPinCheck``) beside it, `policy: "default"` when
/// no plist was given, and for a shard (`audit --shard`) `auditShard` (``AuditShardInputs``) beside `shard`.
public struct AuditJSON: Encodable, Sendable {
    /// The audit to encode.
    public var result: AuditResult
    /// `default` when the endpoints were judged under the default ATS policy (no `--plist`); nil: not written.
    public var policy: String?
    private enum Keys: String, CodingKey { case exceptionDebt, pins, policy, auditShard }

    public init(result: AuditResult, policy: String? = nil) {
        self.result = result
        self.policy = policy
    }

    public func encode(to encoder: Encoder) throws {
        try result.report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(result.exceptionDebt, forKey: .exceptionDebt)
        try container.encodeIfPresent(policy, forKey: .policy)
        try container.encode(result.pins, forKey: .pins)
        try container.encodeIfPresent(result.shardInputs, forKey: .auditShard)
    }
}
