/// What one rule means: the catalogue entry behind a ``RuleID``.
public struct RuleDescriptor: Sendable, Equatable {
    /// The stable id.
    public let id: RuleID
    /// The family the rule belongs to (its documentation section, its NSURLError stage).
    public let family: RuleFamily
    /// One line: what the rule reports.
    public let title: String
    /// One paragraph: what it means, what Apple does, how to fix it.
    public let help: String
    /// The usual severity (a few plist and audit rules vary it with context; ATS and trust violations
    /// are errors).
    public let severity: Finding.Severity
    /// The Apple Info.plist key the rule concerns (that relaxes it, or that it validates), if any.
    public let appleKey: String?

    /// A catalogue entry.
    /// - Parameters:
    ///   - id: The stable id.
    ///   - family: Its family.
    ///   - severity: Its usual severity.
    ///   - title: One line.
    ///   - help: One paragraph.
    ///   - appleKey: The Info.plist key it concerns, if any.
    public init(
        _ id: RuleID, _ family: RuleFamily, _ severity: Finding.Severity, title: String, help: String,
        appleKey: String? = nil
    ) {
        self.id = id
        self.family = family
        self.severity = severity
        self.title = title
        self.help = help
        self.appleKey = appleKey
    }

    /// The anchor of the rule's section in `docs/rules.md`: the id with dots as hyphens
    /// (`ats-tls-forward-secrecy`).
    public var anchor: String { id.rawValue.replacingOccurrences(of: ".", with: "-") }

    /// The rule's documentation on the web (SARIF `helpUri`).
    public var helpURI: String { RuleCatalogue.documentationURL + "#" + anchor }
}

/// The one catalogue of every rule id atscheck emits: ATS and trust violations, endpoint verdicts and
/// scan failures, plist lint, audit, endpoint lists and baselines. Entries live beside their family's
/// constants (`RuleCatalogue+ATS.swift`, `+Trust`, `+Plist`, `+Audit`); `docs/rules.md` is generated
/// from it (`atscheck rules --format markdown`).
public enum RuleCatalogue {
    /// The project's home page (SARIF `tool.driver.informationUri`).
    public static let informationURL = "https://github.com/atscheck/atscheck"
    /// The generated rule documentation on the web; rule anchors are appended (``RuleDescriptor/helpURI``).
    public static let documentationURL = informationURL + "/blob/main/docs/rules.md"

    /// Every entry, by family in ``RuleFamily`` order, then as listed in the family.
    public static let all: [RuleDescriptor] =
        verdictRules + httpRules + tlsRules + trustRules + scanRules
        + plistRules + auditRules + endpointListRules + baselineRules + pinRules + appRules

    private static let index: [RuleID: RuleDescriptor] = Dictionary(all.map { ($0.id, $0) }) { first, _ in first }

    /// The entry for an id.
    /// - Parameter id: A rule id.
    /// - Returns: Its entry, or nil when the catalogue does not know it.
    public static func descriptor(for id: RuleID) -> RuleDescriptor? { index[id] }

    /// The entries of one family, in catalogue order.
    /// - Parameter family: The family.
    /// - Returns: Its entries (empty for a family without rules).
    public static func entries(in family: RuleFamily) -> [RuleDescriptor] { all.filter { $0.family == family } }
}

/// A namespace of ``RuleID`` constants for one family; the old per-module names (`PlistRuleID`,
/// `AuditRuleID`, …) are aliases of these.
public protocol RuleNamespace {
    /// The family whose constants the namespace holds.
    static var family: RuleFamily { get }
}

extension RuleNamespace {
    /// The family's catalogue entries.
    public static var catalogue: [RuleDescriptor] { RuleCatalogue.entries(in: family) }

    /// Rule id → title, for renderers.
    public static var descriptions: [RuleID: String] {
        Dictionary(catalogue.map { ($0.id, $0.title) }) { first, _ in first }
    }
}
