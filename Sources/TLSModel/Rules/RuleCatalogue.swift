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

/// The one catalogue of every rule id atscheck emits: the concatenation of the rule registries (ATS and trust
/// rules in `ATSPolicy`, plist lint in `ATSPolicy`, audit in `Judging`, and the registries of entries this module
/// keeps: verdicts, scans, endpoint lists, baselines, pins, apps); `docs/rules.md` is generated from it (`atscheck
/// rules --format markdown`).
///
/// A value, not a global: the module that sees every registry (the facade, ``RuleCatalogue`` `.atscheck` in
/// `ATSCheckKit`) assembles it and hands it to those that read it (the renderers, through their options). No
/// module registers itself at start-up, so nothing depends on the order modules are loaded in, and the dependency
/// graph stays one-way: a rule's entry is declared beside its code, in the module that emits its id.
public struct RuleCatalogue: Sendable {
    /// The project's home page (SARIF `tool.driver.informationUri`).
    public static let informationURL = "https://github.com/atscheck/atscheck"
    /// The generated rule documentation on the web; rule anchors are appended (``RuleDescriptor/helpURI``).
    public static let documentationURL = informationURL + "/blob/main/docs/rules.md"

    /// The registries, in the order given.
    public let registries: [RuleRegistry]
    /// Every entry: the registries' entries concatenated, in the order given (by family in ``RuleFamily`` order
    /// when the registries are given so, as the facade gives them).
    public let all: [RuleDescriptor]

    private let index: [RuleID: RuleDescriptor]

    /// The catalogue of some registries.
    /// - Parameter registries: The registries, in documentation order.
    public init(_ registries: [RuleRegistry]) {
        self.registries = registries
        all = registries.flatMap(\.entries)
        index = Dictionary(all.map { ($0.id, $0) }) { first, _ in first }
    }

    /// The entry for an id.
    /// - Parameter id: A rule id.
    /// - Returns: Its entry, or nil when the catalogue does not know it.
    public func descriptor(for id: RuleID) -> RuleDescriptor? { index[id] }

    /// The family of an id.
    /// - Parameter id: A rule id.
    /// - Returns: Its family, or nil when the catalogue does not know it.
    public func family(of id: RuleID) -> RuleFamily? { index[id]?.family }

    /// The entries of one family, in catalogue order.
    /// - Parameter family: The family.
    /// - Returns: Its entries (empty for a family without rules).
    public func entries(in family: RuleFamily) -> [RuleDescriptor] { all.filter { $0.family == family } }

    /// Rule id → title, for renderers.
    public var titles: [RuleID: String] { index.mapValues(\.title) }
}

/// A namespace of ``RuleID`` constants for one family; the old per-module names (`PlistRuleID`,
/// `AuditRuleID`, …) are aliases of these. The entries of the ids are declared by the rules that emit them.
public protocol RuleNamespace {
    /// The family whose constants the namespace holds.
    static var family: RuleFamily { get }
}
