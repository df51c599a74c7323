import TLSModel

/// An Info.plist whose `NSAppTransportSecurity` is not a dictionary (unless reading the root stopped at a misspelling
/// of it first). It emits `plist.value.wrong-type`, whose catalogue entry ``ValueTypeRules`` declares, so it declares
/// none.
struct ATSDictionaryWrongTypeRule: PlistLintRule {
    /// None: `plist.value.wrong-type` is declared by ``ValueTypeRules``.
    var entries: [RuleDescriptor] { [] }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) {
        guard c.keyNames.rootMisspelling == nil, c.document.kind == .infoPlist,
            let value = c.document.rootDictionary[ATSKey.appTransportSecurity], PlistNode.dictionary(value) == nil
        else { return }
        c.emit(
            RuleID.Plist.valueWrongType, .error,
            "NSAppTransportSecurity is \(PlistNode(value).typeName), not <dict>: Apple ignores it and "
                + "default ATS applies",
            filePath: [ATSKey.appTransportSecurity], keyPath: ATSKey.appTransportSecurity)
    }
}
