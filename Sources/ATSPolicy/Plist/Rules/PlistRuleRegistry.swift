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

/// The plist lint rules, in documentation order (docs/rules.md), which is also the order they run in: the linter
/// sorts the findings by line, key path and rule id, and where two rules emit the same id (`plist.value.wrong-type`
/// from `ATSDictionaryWrongTypeRule`, `ValueTypeRules` and `PinnedIdentityWrongTypeRule`, `plist.key.wrong-level` from `KeyWrongLevelRule` and
/// `DomainKeyWrongLevelRule`) this order keeps them as they ran before, so the report is unchanged.
enum PlistLintRules {
    static let all: [any PlistLintRule] = [
        // The key name rules, one per id, each reading the names `KeyNameScan` found.
        ATSDictionaryWrongTypeRule(), ATSAbsentRule(), KeyMisspelledRule(), KeyUnknownRule(), KeyWrongLevelRule(),
        KeyCaseDuplicateRule(), DuplicateKeyRules(), LegacyKeyRules(), ValueTypeRules(),
        // The domain key rules, one per id, each reading the key as `DomainEntry` left it.
        DomainKeyWrongLevelRule(), DomainInvalidRule(), DomainSchemeRule(), DomainPortRule(), DomainPathRule(),
        DomainWildcardRule(), DomainLeadingDotRule(), DomainUppercaseRule(), DomainTrailingDotRule(),
        DomainIPAddressRule(), DomainCIDRRule(), DomainInvalidCIDRRule(), DomainSubdomainsOnIPRule(),
        DeadKeyRules(), ReviewJustificationRules(),
        // The pinned domain rules, one per id, each reading the entry as `PinnedEntry` read it.
        PinnedIdentityWrongTypeRule(), PinningNoIdentitiesRule(), PinningEmptyIdentitiesRule(),
        PinningMissingSPKIRule(),
        PinningInvalidBase64Rule(), PinningWrongDigestLengthRule(), PinningNoBackupRule(), PinningPlaceholderRule(),
        ExceptionNoteRules(), CatalystMinimumRule(),
        UnresolvedSettingRules(),
    ]
}

extension RuleRegistry {
    /// `NSAppTransportSecurity` validation by `atscheck plist` (`plist.*`): the lint rules' entries, then the
    /// entries of what reading a source file reports.
    package static let plist = RuleRegistry(
        "plist", rules: PlistLintRules.all.map { $0 as any Rule } + [SourceReadingFindings()])
}
