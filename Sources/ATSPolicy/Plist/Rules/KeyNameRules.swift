import TLSModel

extension RuleID.Plist {
    /// `plist.ats.absent`: The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere.
    package static let atsAbsent: RuleID = "plist.ats.absent"
    /// `plist.key.misspelled`: A key that is not an ATS key but is close to one; Apple ignores it.
    package static let keyMisspelled: RuleID = "plist.key.misspelled"
    /// `plist.key.unknown`: A key atscheck does not know; Apple ignores unknown keys.
    package static let keyUnknown: RuleID = "plist.key.unknown"
    /// `plist.key.wrong-level`: An ATS key placed in the wrong dictionary, where Apple does not read it.
    package static let keyWrongLevel: RuleID = "plist.key.wrong-level"
    /// `plist.key.case-duplicate`: Two keys that differ only in letter case; lookups are case-sensitive.
    package static let keyCaseDuplicate: RuleID = "plist.key.case-duplicate"
}

/// Key names: unknown and misspelled keys (with "did you mean"), keys at the wrong level, and keys
/// differing only in case (docs/apple-rules.md §3.1, §3.2, §3.4: "unknown or misspelled keys are ignored").
/// Also the Info.plist root: a missing or misspelled `NSAppTransportSecurity`, and ATS keys
/// placed beside it instead of inside it.
struct KeyNameRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.atsAbsent, .plist, .note,
                title: "The Info.plist has no NSAppTransportSecurity dictionary: default ATS applies everywhere.",
                help: """
                    Without the dictionary every host gets full ATS: HTTPS only, TLS 1.2 or later, forward-secret \
                    suites and Apple's certificate rules. Nothing to fix unless the app needs an exception.
                    """,
                appleKey: "NSAppTransportSecurity"),
            RuleDescriptor(
                RuleID.Plist.keyMisspelled, .plist, .error,
                title: "A key that is not an ATS key but is close to one; Apple ignores it.",
                help: """
                    Apple reads ATS keys by exact, case-sensitive name, so a misspelling (`NSAllowArbitraryLoads`, \
                    `NSIncludesSubdomain`) or a key that never existed (`NSAllowsArbitraryLoadsInMedia`) is silently \
                    ignored and the default applies. Use the key the message suggests.
                    """),
            RuleDescriptor(
                RuleID.Plist.keyUnknown, .plist, .warning,
                title: "A key atscheck does not know; Apple ignores unknown keys.",
                help: """
                    The key is not one of Apple's documented ATS keys, and not close enough to one to be a likely \
                    typo. ATS ignores it. Remove it, or check Apple's documentation for the key you meant.
                    """),
            RuleDescriptor(
                RuleID.Plist.keyWrongLevel, .plist, .error,
                title: "An ATS key placed in the wrong dictionary, where Apple does not read it.",
                help: """
                    Global keys (`NSAllowsArbitraryLoads`, …) belong directly in `NSAppTransportSecurity`, per-domain \
                    keys (`NSIncludesSubdomains`, `NSExceptionMinimumTLSVersion`, …) inside an `NSExceptionDomains` \
                    entry, pinning keys inside an `NSPinnedDomains` entry. Elsewhere Apple does not read them. Move \
                    the key to the level the message names.
                    """),
            RuleDescriptor(
                RuleID.Plist.keyCaseDuplicate, .plist, .error,
                title: "Two keys that differ only in letter case; lookups are case-sensitive.",
                help: """
                    Apple looks keys up by exact name, so only the correctly cased one counts, and exception domains \
                    are matched exactly. Keep one key with the documented spelling (lower-case for domains).
                    """),
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        checkRoot(c)
        guard let ats = c.ats else { return }
        checkDictionary(c, ats, level: .global, at: [])
        for container in [ATSKey.exceptionDomains, .pinnedDomains] {
            if let value = ats[container.name], let domains = PlistNode.dictionary(value) {
                checkCaseDuplicates(c, Array(domains.keys), at: [container.name])
            }
        }
        for (name, value) in c.exceptionDomains {
            if let entry = PlistNode.dictionary(value) {
                checkDictionary(c, entry, level: .exceptionDomain, at: [ATSKey.exceptionDomains.name, name])
            }
        }
        for (name, value) in c.pinnedDomains {
            guard let entry = PlistNode.dictionary(value) else { continue }
            let entryPath = [ATSKey.pinnedDomains.name, name]
            checkDictionary(c, entry, level: .pinnedDomain, at: entryPath)
            for arrayKey in [ATSKey.pinnedCAIdentities, ATSKey.pinnedLeafIdentities] {
                guard let identities = entry[arrayKey.name] as? [Any] else { continue }
                for (i, identity) in identities.enumerated() {
                    if let dict = PlistNode.dictionary(identity) {
                        checkDictionary(c, dict, level: .pinnedIdentity, at: entryPath + [arrayKey.name, String(i)])
                    }
                }
            }
        }
    }

    private static func checkRoot(_ c: LintContext) {
        let doc = c.document
        guard doc.kind == .infoPlist else { return }
        let root = doc.rootDictionary
        for key in root.keys.sorted() {
            if let known = ATSKey.named(key) {
                c.emit(
                    RuleID.Plist.keyWrongLevel, .error,
                    "\(known.name) is at the top level of the Info.plist, where Apple does not read it; move it "
                        + "inside NSAppTransportSecurity",
                    filePath: [key], keyPath: key)
            } else if root[ATSKey.appTransportSecurity] == nil, key != ATSKey.appTransportSecurity,
                KeySuggestion.suggest(for: key, among: [ATSKey.appTransportSecurity]) != nil
            {
                c.emit(
                    RuleID.Plist.keyMisspelled, .error,
                    "unknown key \(key): did you mean NSAppTransportSecurity? As written, Apple ignores the whole "
                        + "dictionary and default ATS applies",
                    filePath: [key], keyPath: key)
                return
            }
        }
        if let value = root[ATSKey.appTransportSecurity] {
            if PlistNode.dictionary(value) == nil {
                c.emit(
                    RuleID.Plist.valueWrongType, .error,
                    "NSAppTransportSecurity is \(PlistNode(value).typeName), not <dict>: Apple ignores it and "
                        + "default ATS applies",
                    filePath: [ATSKey.appTransportSecurity], keyPath: ATSKey.appTransportSecurity)
            }
        } else if !root.keys.contains(where: { ATSKey.named($0) != nil }) {
            c.emit(
                RuleID.Plist.atsAbsent, .note,
                "no NSAppTransportSecurity dictionary: default ATS applies to every connection",
                filePath: [], keyPath: ATSKey.appTransportSecurity)
        }
    }

    /// Checks the keys of one dictionary at a given level.
    static func checkDictionary(_ c: LintContext, _ dict: [String: Any], level: ATSKey.Level, at path: [String]) {
        let keys = dict.keys.sorted()
        checkCaseDuplicates(c, keys, at: path)
        let levelKeys = ATSKey.all.filter { $0.levels.contains(level) }.map(\.name)
        for key in keys {
            let keyPath = path + [key]
            if let known = ATSKey.named(key) {
                if !known.levels.contains(level) {
                    c.emit(
                        RuleID.Plist.keyWrongLevel, .error,
                        "\(key) does not belong \(describe(level)); Apple reads it only "
                            + "\(known.levels.map(describe).sorted().joined(separator: " or ")), so here it is "
                            + "ignored",
                        at: keyPath)
                }
                continue
            }
            let suggestion = KeySuggestion.suggest(for: key, among: levelKeys) ?? KeySuggestion.suggest(for: key)
            if let suggestion, let meant = ATSKey.named(suggestion) {
                var message = "unknown key \(key): did you mean \(suggestion)? Apple ignores unknown keys"
                if !meant.levels.contains(level) {
                    message +=
                        " (and \(suggestion) belongs "
                        + "\(meant.levels.map(describe).sorted().joined(separator: " or ")), not "
                        + "\(describe(level)))"
                }
                c.emit(RuleID.Plist.keyMisspelled, .error, message, at: keyPath)
            } else {
                c.emit(
                    RuleID.Plist.keyUnknown, .warning,
                    "unknown key \(key) \(describe(level)): not an ATS key atscheck knows, and Apple ignores unknown "
                        + "keys",
                    at: keyPath)
            }
        }
    }

    /// Reports every key of a group that differs only in case, except the one spelled as
    /// the catalogue (or lower case, for domains) spells it.
    private static func checkCaseDuplicates(_ c: LintContext, _ keys: [String], at path: [String]) {
        let groups = Dictionary(grouping: keys, by: { $0.lowercased() }).filter { $0.value.count > 1 }
        for (folded, group) in groups {
            let sorted = group.sorted()
            let canonical = sorted.first { ATSKey.named($0) != nil } ?? sorted.first { $0 == folded } ?? sorted[0]
            for key in sorted where key != canonical {
                c.emit(
                    RuleID.Plist.keyCaseDuplicate, .error,
                    "\(key) and \(canonical) differ only in case; Apple's lookups are case-sensitive, so \(key) is "
                        + "read separately (or not at all)",
                    at: path + [key])
            }
        }
    }

    static func describe(_ level: ATSKey.Level) -> String {
        switch level {
        case .global: return "directly in NSAppTransportSecurity"
        case .exceptionDomain: return "in an NSExceptionDomains entry"
        case .pinnedDomain: return "in an NSPinnedDomains entry"
        case .pinnedIdentity: return "in a pinned identity dictionary"
        }
    }
}
