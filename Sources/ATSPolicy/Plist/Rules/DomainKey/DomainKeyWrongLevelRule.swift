import TLSModel

/// An ATS key directly inside `NSExceptionDomains` or `NSPinnedDomains`, where Apple reads it as a host name. It
/// emits `plist.key.wrong-level`, whose catalogue entry ``KeyWrongLevelRule`` declares, so it declares none.
struct DomainKeyWrongLevelRule: PlistLintRule {
    /// None: `plist.key.wrong-level` is declared by ``KeyWrongLevelRule``.
    var entries: [RuleDescriptor] { [] }

    func check(_ c: LintContext) {
        for d in c.domainEntries where d.stop == .atsKey {
            c.emit(
                RuleID.Plist.keyWrongLevel, .error,
                "\(d.name) is directly inside \(d.container.name), where Apple reads it as a host name; put it inside a "
                    + "domain entry such as <key>example.com</key><dict>…</dict>",
                at: d.path)
        }
    }
}
