import Foundation
import TLSModel

extension RuleID.Plist {
    /// `plist.value.wrong-type`: A value of the wrong plist type; Apple ignores it and uses the default.
    package static let valueWrongType: RuleID = "plist.value.wrong-type"
    /// `plist.value.numeric-boolean` (its entry is below).
    package static let valueNumericBoolean: RuleID = "plist.value.numeric-boolean"
    /// `plist.value.invalid-tls-version` (its entry is below).
    package static let valueInvalidTLSVersion: RuleID = "plist.value.invalid-tls-version"
    /// `plist.value.invalid-niap-version`: An NIAP TLS package value Apple does not recognise.
    package static let valueInvalidNIAP: RuleID = "plist.value.invalid-niap-version"
}

/// Value types and values, and what Apple does with a wrong one (docs/apple-rules.md §3.4):
/// a global boolean that is a string (`"YES"`) is treated as absent; a number other than 1 is
/// present but not YES; a per-domain boolean written as a number counts by its truth value on current
/// releases (a warning: older ones may differ); one of another wrong type falls back to its default;
/// `NSExceptionMinimumTLSVersion` must be exactly `TLSv1.0`…`TLSv1.3`, anything else leaves TLS 1.2;
/// a non-dictionary `NSExceptionDomains` or domain entry is skipped.
struct ValueTypeRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.valueWrongType, .plist, .error,
                title: "A value of the wrong plist type; Apple ignores it and uses the default.",
                help: """
                    ATS reads booleans as `<true/>`/`<false/>`, versions and NIAP values as `<string>`, and domain \
                    lists as `<dict>`. A value of another type (a string "YES", a date, an array) is treated as absent \
                    and the key's default applies; a global boolean given as a number other than 0 or 1 is an error \
                    too. Write the value with the documented type.
                    """),
            RuleDescriptor(
                RuleID.Plist.valueNumericBoolean, .plist, .warning,
                title: "A boolean written as a number; Apple reads it by its value, but not the same way on every OS.",
                help: """
                    In an `NSExceptionDomains` entry, current Apple source reads a number by its truth value \
                    (0 = NO, any other number = YES), exactly like `<false/>`/`<true/>`; releases before iOS 18.4 / \
                    macOS 15.4 may differ (their code is closed), so atscheck reports verdicts for them as ambiguous \
                    when it matters. For a global key, 1 reads as YES and 0 as NO (another number is present without \
                    being YES, an error). Use `<true/>` or `<false/>`.
                    """),
            RuleDescriptor(
                RuleID.Plist.valueInvalidTLSVersion, .plist, .error,
                title: "An NSExceptionMinimumTLSVersion Apple does not recognise; TLS 1.2 stays the minimum.",
                help: """
                    Apple accepts exactly `TLSv1.0`, `TLSv1.1`, `TLSv1.2` or `TLSv1.3` (case-sensitive); anything else \
                    (`1.0`, `TLSV1.2`, `TLSv1.00`) is ignored and the minimum stays TLS 1.2. Use one of the four values.
                    """,
                appleKey: "NSExceptionMinimumTLSVersion"),
            RuleDescriptor(
                RuleID.Plist.valueInvalidNIAP, .plist, .error,
                title: "An NIAP TLS package value Apple does not recognise.",
                help: """
                    `NSRequiresNIAPTLSPackageVersion` and `NSExceptionRequiresNIAPTLSPackageVersion` (iOS 26.4+) take \
                    `none`, `FCP_v2.1` or `recommended`. Use one of them.
                    """,
                appleKey: "NSRequiresNIAPTLSPackageVersion"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        guard let ats = c.ats else { return }
        checkValues(c, ats, level: .global, at: [])
        for (name, value) in c.exceptionDomains {
            let path = [ATSKey.exceptionDomains.name, name]
            if let entry = PlistNode.dictionary(value) {
                checkValues(c, entry, level: .exceptionDomain, at: path)
            } else if ATSKey.named(name) == nil {  // a key in place of a domain is reported by DomainKeyWrongLevelRule
                // What the host then gets comes from the same evaluation as `--explain` (the entry is skipped, so
                // the configuration Apple reads has no entry for it): never a consequence stated on its own.
                c.emit(
                    RuleID.Plist.valueWrongType, .error,
                    "the NSExceptionDomains entry \(name) is \(PlistNode(value).typeName), not <dict>: Apple skips "
                        + "it, so \(name) is treated as a host without an entry (--explain: \(c.consequence(for: name)))",
                    at: path)
            }
        }
        for (name, value) in c.pinnedDomains {
            let path = [ATSKey.pinnedDomains.name, name]
            if let entry = PlistNode.dictionary(value) {
                checkValues(c, entry, level: .pinnedDomain, at: path)
            } else if ATSKey.named(name) == nil {
                c.emit(
                    RuleID.Plist.valueWrongType, .error,
                    "the NSPinnedDomains entry \(name) is \(PlistNode(value).typeName), not <dict>: Apple skips it, "
                        + "so \(name) is not pinned",
                    at: path)
            }
        }
    }

    /// Checks the values of the known keys of one dictionary at their proper level.
    static func checkValues(_ c: LintContext, _ dict: [String: Any], level: ATSKey.Level, at path: [String]) {
        for name in dict.keys.sorted() {
            guard let key = ATSKey.named(name), key.levels.contains(level) else { continue }
            let value = PlistNode(dict[name]!)
            let keyPath = path + [name]
            switch key.type {
            case .boolean: checkBoolean(c, key, value, level: level, at: keyPath)
            case .string: checkString(c, key, value, at: keyPath)
            case .dictionary:
                if case .dictionary = value { break }
                let effect =
                    key == .exceptionDomains
                    ? "Apple ignores every exception; the global keys stay in force"
                    : "Apple ignores it, so nothing is pinned"
                c.emit(
                    RuleID.Plist.valueWrongType, .error,
                    "\(name) is \(value.typeName), not <dict>: \(effect)", at: keyPath)
            case .array:
                if case .array = value { break }
                c.emit(
                    RuleID.Plist.valueWrongType, .error,
                    "\(name) is \(value.typeName), not an <array> of <dict>: Apple ignores it, so this entry adds no "
                        + "such pin",
                    at: keyPath)
            }
        }
    }

    /// The value Apple uses when a per-domain boolean is missing or unreadable.
    static func defaultValue(_ key: ATSKey) -> Bool { key.name.hasSuffix("RequiresForwardSecrecy") }

    private static func checkBoolean(
        _ c: LintContext, _ key: ATSKey, _ value: PlistNode, level: ATSKey.Level, at path: [String]
    ) {
        let name = key.name
        let yesNo = { (b: Bool) in b ? "YES" : "NO" }
        switch value {
        case .boolean:
            return
        case .integer, .real:
            let number: Double
            if case .integer(let i) = value {
                number = Double(i)
            } else if case .real(let d) = value {
                number = d
            } else {
                return
            }
            if level == .global {
                if number == 1 || number == 0 {
                    c.emit(
                        RuleID.Plist.valueNumericBoolean, .warning,
                        "\(name) is \(value.shortDescription): Apple reads it as \(number == 1 ? "YES" : "NO"), but "
                            + "write \(number == 1 ? "<true/>" : "<false/>")",
                        at: path)
                } else {
                    c.emit(
                        RuleID.Plist.valueWrongType, .error,
                        "\(name) is \(value.shortDescription): Apple treats it as present but not YES, so it relaxes "
                            + "nothing; write <true/> or <false/>",
                        at: path)
                }
            } else {
                // §3.4 (corrected 2026-11-23): current Security source reads a per-domain number by its
                // truth value; older, closed CFNetwork may not, so the engine reports those OSes ambiguous.
                let reads = number != 0
                c.emit(
                    RuleID.Plist.valueNumericBoolean, .warning,
                    "\(name) is \(value.shortDescription): current Apple source reads a number by its truth value "
                        + "(\(yesNo(reads)) here), but releases before iOS 18.4 / macOS 15.4 may ignore it and use "
                        + "the default (\(yesNo(defaultValue(key)))); write \(reads ? "<true/>" : "<false/>")",
                    at: path)
            }
        default:
            var effect =
                level == .global
                ? "Apple ignores it and treats the key as absent"
                : "Apple ignores it and uses the default (\(yesNo(defaultValue(key))))"
            if level != .global, case .string(let text) = value {
                // §3.4: older Security source read per-domain strings with boolValue (a CONFLICT before 18.4).
                let old = ExceptionDomain.stringBoolValue(text)
                effect =
                    "current Apple source ignores it and uses the default (\(yesNo(defaultValue(key)))); releases "
                    + "before iOS 18.4 / macOS 15.4 may read it as \(yesNo(old))"
            }
            c.emit(
                RuleID.Plist.valueWrongType, .error,
                "\(name) is \(value.shortDescription), not a boolean: \(effect); write <true/> or <false/>", at: path)
        }
    }

    private static func checkString(_ c: LintContext, _ key: ATSKey, _ value: PlistNode, at path: [String]) {
        let name = key.name
        let isTLS = name.hasSuffix("MinimumTLSVersion")
        guard case .string(let text) = value else {
            let effect = isTLS ? "Apple ignores it and the minimum stays TLSv1.2" : "Apple ignores it"
            c.emit(
                RuleID.Plist.valueWrongType, .error, "\(name) is \(value.shortDescription), not a <string>: \(effect)",
                at: path)
            return
        }
        // A value Xcode fills in from a build setting that is not given: UnresolvedSettingRules reports it.
        if BuildSettings.refersToSetting(text) { return }
        if isTLS {
            guard !ATSKey.validMinimumTLSVersions.contains(text) else { return }
            var message =
                "\(name) = \"\(text)\" is not one of \(ATSKey.validMinimumTLSVersions.joined(separator: ", ")) "
                + "(exact case): Apple ignores it and the minimum stays TLSv1.2"
            if let meant = suggestTLSVersion(text) { message += "; did you mean \(meant)?" }
            // Deprecated spellings are probably ignored anyway; the value is still wrong.
            c.emit(RuleID.Plist.valueInvalidTLSVersion, .error, message, at: path)
        } else if name.hasSuffix("NIAPTLSPackageVersion"), !ATSKey.validNIAPValues.contains(text) {
            c.emit(
                RuleID.Plist.valueInvalidNIAP, .error,
                "\(name) = \"\(text)\" is not one of \(ATSKey.validNIAPValues.joined(separator: ", ")): Apple does "
                    + "not recognise it",
                at: path)
        }
    }

    /// `"1.0"` → `TLSv1.0`, `"TLSV1.2"` → `TLSv1.2`, `"tlsv1.3"` → `TLSv1.3`.
    static func suggestTLSVersion(_ text: String) -> String? {
        let t = text.trimmingCharacters(in: .whitespaces).lowercased()
        for valid in ATSKey.validMinimumTLSVersions {
            let v = valid.lowercased()
            if t == v || t == v.replacingOccurrences(of: "tlsv", with: "")
                || t == v.replacingOccurrences(of: "v", with: "")
                || t == v.replacingOccurrences(of: "tlsv", with: "tls ")
            {
                return valid
            }
        }
        if t == "1" { return "TLSv1.0" }
        return nil
    }
}
