/// The ATS verdict for one endpoint, as the `ats` object of the JSON contract.
///
/// Produced by the `ATSPolicy` module; kept here so every renderer can read it without
/// depending on the policy engine.
public struct ATSEvaluation: Codable, Sendable, Equatable {
    public enum Verdict: String, Codable, Sendable, Equatable {
        case pass, fail
        /// The scan could not tell (a probe timed out, no handshake completed).
        case unknown
        /// Two readings of a conflicting rule give different verdicts (see `readings`).
        case ambiguous
    }

    public var verdict: Verdict
    public var violations: [ATSViolation]
    /// The Apple OS release whose rules were applied, e.g. `26.4`.
    public var osVersion: String?
    /// Notes that are not violations (documentation conflicts, assumptions made).
    public var notes: [String]
    /// For an `ambiguous` verdict: each reading of the conflicting rule and its verdict.
    public var readings: [Reading]

    public struct Reading: Codable, Sendable, Equatable {
        /// Which reading, e.g. `doc` / `source`, or a conflict id.
        public var name: String
        public var verdict: Verdict
        public var violations: [ATSViolation]

        public init(name: String, verdict: Verdict, violations: [ATSViolation]) {
            self.name = name
            self.verdict = verdict
            self.violations = violations
        }
    }

    public init(
        verdict: Verdict, violations: [ATSViolation] = [], osVersion: String? = nil, notes: [String] = [],
        readings: [Reading] = []
    ) {
        self.verdict = verdict
        self.violations = violations
        self.osVersion = osVersion
        self.notes = notes
        self.readings = readings
    }

    /// The verdict used before the ATS engine runs: nothing has been judged.
    public static let notEvaluated = ATSEvaluation(verdict: .unknown, notes: ["ATS rules were not evaluated"])
}

/// One broken ATS or Apple trust rule.
public struct ATSViolation: Codable, Sendable, Equatable, Hashable {
    /// Stable id, e.g. `ats.tls.forward-secrecy` (``RuleID/ATS/forwardSecrecy``); its entry is in ``RuleCatalogue``.
    public var rule: RuleID
    /// One line naming the server's fact and Apple's rule.
    public var message: String
    /// The Info.plist key that would relax it, if any
    /// (e.g. `NSExceptionDomains.<host>.NSExceptionRequiresForwardSecrecy`).
    @ExplicitNull public var keyPath: String?
    /// The same path as its keys: the dotted form cannot be split back when a domain key has dots. Absent when there
    /// is no key path.
    public var keyPathComponents: [String]?

    public init(rule: RuleID, message: String, keyPath: String? = nil, keyPathComponents: [String]? = nil) {
        self.rule = rule
        self.message = message
        self.keyPath = keyPath
        self.keyPathComponents = keyPathComponents
    }
}
