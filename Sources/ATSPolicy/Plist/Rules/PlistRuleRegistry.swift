import TLSModel

/// One plist lint rule: reads the lint context (the document, its ATS dictionary, the OS releases judged) and emits
/// its findings there. Its catalogue entries are declared beside it (``Rule/entries``).
protocol PlistLintRule: Rule {
    /// Whether the rule reads the ATS dictionary, so runs only when the document has one (default: true).
    var needsATSDictionary: Bool { get }

    /// Emits the rule's findings.
    /// - Parameter c: The lint context.
    func check(_ c: LintContext)
}

extension PlistLintRule {
    var needsATSDictionary: Bool { true }
}

/// The plist lint rules, in the order they run.
enum PlistLintRules {
    static let all: [any PlistLintRule] = [
        KeyNameRules(), ValueTypeRules(), DomainKeyRules(), LegacyKeyRules(), DeadKeyRules(),
        ReviewJustificationRules(), PinnedDomainRules(), ExceptionNoteRules(), UnresolvedSettingRules(),
        CatalystMinimumRule(), DuplicateKeyRules(),
    ]
}

extension RuleRegistry {
    /// `NSAppTransportSecurity` validation by `atscheck plist` (`plist.*`): the rules' entries in documentation
    /// order, then the entries of what reading a source file reports.
    public static let plist = RuleRegistry(
        "plist",
        rules: [
            KeyNameRules(), DuplicateKeyRules(), LegacyKeyRules(), ValueTypeRules(), DomainKeyRules(), DeadKeyRules(),
            ReviewJustificationRules(), PinnedDomainRules(), ExceptionNoteRules(), CatalystMinimumRule(),
            UnresolvedSettingRules(), SourceReadingFindings(),
        ])
}
