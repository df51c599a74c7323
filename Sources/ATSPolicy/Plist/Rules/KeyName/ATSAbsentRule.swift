import TLSModel

extension RuleID.Plist {
    /// `plist.ats.absent`: The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere.
    package static let atsAbsent: RuleID = "plist.ats.absent"
}

/// An Info.plist without `NSAppTransportSecurity` and without ATS keys at its root (reading the root stops at a
/// misspelling of the dictionary, which ``KeyMisspelledRule`` reports). Reads the names ``KeyNameScan`` found.
struct ATSAbsentRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.atsAbsent, .plist, .note,
                title: "The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere.",
                help: """
                    Without the dictionary every host gets full ATS: HTTPS only, TLS 1.2 or later, forward-secret \
                    suites and Apple's certificate rules. Nothing to fix unless the app needs an exception.
                    """,
                appleKey: "NSAppTransportSecurity")
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) {
        guard c.keyNames.rootMisspelling == nil, c.document.kind == .infoPlist else { return }
        let root = c.document.rootDictionary
        guard root[ATSKey.appTransportSecurity] == nil, !root.keys.contains(where: { ATSKey.named($0) != nil }) else {
            return
        }
        c.emit(
            RuleID.Plist.atsAbsent, .note,
            "no NSAppTransportSecurity dictionary: default ATS applies to every connection",
            filePath: [], keyPath: ATSKey.appTransportSecurity)
    }
}
