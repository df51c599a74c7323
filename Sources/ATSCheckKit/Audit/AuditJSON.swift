import Foundation
import TLSModel

/// The audit's JSON: the report of the contract (schemaVersion, endpoints, findings, summary) with
/// `exceptionDebt` and the pin evaluations (`pins`, ``AuditPinCheck``) beside it.
public struct AuditJSON: Encodable, Sendable {
    /// The audit to encode.
    public var result: AuditResult
    private enum Keys: String, CodingKey { case exceptionDebt, pins }

    public init(result: AuditResult) { self.result = result }

    public func encode(to encoder: Encoder) throws {
        try result.report.encode(to: encoder)
        var container = encoder.container(keyedBy: Keys.self)
        try container.encode(result.exceptionDebt, forKey: .exceptionDebt)
        try container.encode(result.pins, forKey: .pins)
    }
}
