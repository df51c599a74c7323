import TLSModel

/// What an audit adds to its scan report (``AuditDocument``): the exception debt and the pin checks as data (their
/// findings are in the scan report already), and whether the endpoints were judged without a plist.
///
/// The JSON writes them beside the report (`exceptionDebt`, `pins`, `policy`, `auditShard`); text and Markdown
/// say when no plist was given; the other formats show the findings only.
package struct AuditSection: Sendable {
    /// The line that says what an audit without `--plist` judges under.
    package static let defaultPolicyNote =
        "No --plist: every endpoint is judged under the default ATS policy (no exceptions)."

    /// One item per exception problem, with the entry as it is and the entry that would do.
    package var exceptionDebt: [ExceptionDebt]
    /// Each endpoint checked against the plist's `NSPinnedDomains` or its entry's pin check, in list order.
    package var pins: [AuditPinCheck]
    /// True when there was no plist: every endpoint was judged under the default ATS policy (`policy: "default"`).
    package var judgedUnderDefaultPolicy: Bool
    /// A shard's inputs, written as `auditShard` for `atscheck merge` (only the JSON shows them); nil for a whole
    /// run. Opaque here: the facade owns their shape.
    package var shardInputs: (any Encodable & Sendable)?

    /// - Parameters:
    ///   - exceptionDebt: the exception debt.
    ///   - pins: the pin checks.
    ///   - judgedUnderDefaultPolicy: true when no plist was given.
    ///   - shardInputs: a shard's inputs (`auditShard`), nil for a whole run.
    package init(
        exceptionDebt: [ExceptionDebt], pins: [AuditPinCheck] = [], judgedUnderDefaultPolicy: Bool = false,
        shardInputs: (any Encodable & Sendable)? = nil
    ) {
        self.exceptionDebt = exceptionDebt
        self.pins = pins
        self.judgedUnderDefaultPolicy = judgedUnderDefaultPolicy
        self.shardInputs = shardInputs
    }
}
