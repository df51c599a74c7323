import TLSModel

/// A pinned identity that is not a dictionary, or whose pin is not a string: Apple skips it. Both are one predicate,
/// the identity's value types. It emits `plist.value.wrong-type`, whose catalogue entry ``ValueTypeRules`` declares,
/// so it declares none.
struct PinnedIdentityWrongTypeRule: PlistLintRule {
    /// None: `plist.value.wrong-type` is declared by ``ValueTypeRules``.
    var entries: [RuleDescriptor] { [] }

    func check(_ c: LintContext) {
        let spkiKey = ATSKey.spkiSHA256Base64.name
        for p in c.pinnedEntries {
            for i in p.identities {
                switch i.identity {
                case .notDictionary(let typeName):
                    c.emit(
                        RuleID.Plist.valueWrongType, .error,
                        "pinned identity \(i.path.last!) of \(p.name) is \(typeName), not a <dict> with "
                            + "\(spkiKey): Apple skips it",
                        at: i.path)
                case .notString(let typeName):
                    c.emit(
                        RuleID.Plist.valueWrongType, .error,
                        "\(spkiKey) of \(p.name) is \(typeName), not a <string>: Apple skips it",
                        at: i.path + [spkiKey])
                default:
                    continue
                }
            }
        }
    }
}
