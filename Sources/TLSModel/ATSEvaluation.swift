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
    /// For an `ambiguous` verdict that no CONFLICT decides: what the checker's data could not settle (an SCT from a
    /// log newer than the CT log list, an issuer it could not fetch), each with how to settle it. Empty otherwise.
    public var ambiguities: [String]

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
        readings: [Reading] = [], ambiguities: [String] = []
    ) {
        self.verdict = verdict
        self.violations = violations
        self.osVersion = osVersion
        self.notes = notes
        self.readings = readings
        self.ambiguities = ambiguities
    }

    private enum CodingKeys: String, CodingKey {
        case verdict, violations, osVersion, notes, readings, ambiguities
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            verdict: try c.decode(Verdict.self, forKey: .verdict),
            violations: try c.decode([ATSViolation].self, forKey: .violations),
            osVersion: try c.decodeIfPresent(String.self, forKey: .osVersion),
            notes: try c.decode([String].self, forKey: .notes),
            readings: try c.decode([Reading].self, forKey: .readings),
            // Reports written before the field have none.
            ambiguities: try c.decodeIfPresent([String].self, forKey: .ambiguities) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(verdict, forKey: .verdict)
        try c.encode(violations, forKey: .violations)
        try c.encodeIfPresent(osVersion, forKey: .osVersion)
        try c.encode(notes, forKey: .notes)
        try c.encode(readings, forKey: .readings)
        if !ambiguities.isEmpty { try c.encode(ambiguities, forKey: .ambiguities) }
    }

    /// A rejection by the app's `NSPinnedDomains` decides the verdict: ATS adds those pins to every SSL policy with
    /// the host, so the connection fails (NSURLError −1200) whatever else passes. Each rejection becomes a violation
    /// with the finding's words: the report's issue list (Reporting's `ReportIssues`) shows a violation that repeats a
    /// finding once.
    /// - Parameter rejections: the `pins.rejected` errors of the endpoint's `NSPinnedDomains` check.
    public mutating func fail(byPinRejections rejections: [Finding]) {
        guard !rejections.isEmpty else { return }
        verdict = .fail
        for finding in rejections {
            let violation = ATSViolation(rule: finding.rule, message: finding.message, keyPath: finding.keyPath)
            if !violations.contains(violation) { violations.append(violation) }
        }
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
