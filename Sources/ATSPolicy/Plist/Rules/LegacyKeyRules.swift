import TLSModel

extension RuleID.Plist {
    /// `plist.key.deprecated`: An iOS 9-era NSThirdParty…/NSTemporary… key that current OSes probably ignore.
    package static let keyDeprecated: RuleID = "plist.key.deprecated"
    /// `plist.key.obsolete`: NSRequiresCertificateTransparency: obsolete, and Apple advises against setting it.
    package static let keyObsolete: RuleID = "plist.key.obsolete"
}

/// Legacy keys (docs/apple-rules.md §3.2, §2.2): the iOS 9-era `NSThirdParty…` / `NSTemporary…` spellings,
/// which current Security sources do not read, and the obsolete `NSRequiresCertificateTransparency`,
/// which Apple advises against because CT is always enforced now.
struct LegacyKeyRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyDeprecated, .plist, .warning,
                title: "An iOS 9-era NSThirdParty…/NSTemporary… key that current OSes probably ignore.",
                help: """
                    `NSThirdPartyException…` and `NSTemporaryException…` keys were removed from Apple's documentation \
                    in 2016 and Apple's open-source ATS code does not read them. iOS 9 may have honoured them like the \
                    `NSException…` keys, so atscheck evaluates iOS 9 both ways and reports a difference as ambiguous; \
                    iOS 10 and later probably ignore them. Replace each with its `NSException…` equivalent.
                    """),
            RuleDescriptor(
                RuleID.Plist.keyObsolete, .plist, .warning,
                title: "NSRequiresCertificateTransparency: obsolete, and Apple advises against setting it.",
                help: """
                    Certificate Transparency is always enforced for publicly trusted certificates, and Apple warns \
                    that setting this key can make new certificates fail on devices with an out-of-date log list. \
                    Remove the key.
                    """,
                appleKey: "NSRequiresCertificateTransparency"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        for (name, value) in c.exceptionDomains {
            guard let entry = PlistNode.dictionary(value) else { continue }
            let path = [ATSKey.exceptionDomains.name, name]
            for key in entry.keys.sorted() {
                guard let known = ATSKey.named(key) else { continue }
                switch known.status {
                case .current:
                    continue
                case .deprecated:
                    let current = currentSpelling(of: key)
                    let already = entry[current] != nil ? " (\(current) is also set; remove \(key))" : ""
                    c.emit(
                        RuleID.Plist.keyDeprecated, .warning,
                        "\(key) is an iOS 9-era key that Apple removed in 2016: iOS 9 may have honoured it like "
                            + "\(current) (atscheck reports iOS 9 both ways), iOS 10 and later probably ignore it; "
                            + "use \(current)\(already)",
                        at: path + [key])
                case .obsolete:
                    c.emit(
                        RuleID.Plist.keyObsolete, .warning,
                        "\(key) is obsolete (Certificate Transparency is always enforced) and Apple advises against "
                            + "it: devices with an out-of-date CT log list may reject new certificates; remove it",
                        at: path + [key])
                }
            }
        }
    }

    /// `NSTemporaryThirdPartyExceptionMinimumTLSVersion` → `NSExceptionMinimumTLSVersion`.
    static func currentSpelling(of key: String) -> String {
        var name = key
        for prefix in ["NSTemporaryThirdPartyException", "NSThirdPartyException", "NSTemporaryException"]
        where name.hasPrefix(prefix) {
            name = "NSException" + name.dropFirst(prefix.count)
            break
        }
        if name == "NSExceptionAllowsInsecureHTTPSLoads" { name = "NSExceptionAllowsInsecureHTTPLoads" }
        return name
    }
}
