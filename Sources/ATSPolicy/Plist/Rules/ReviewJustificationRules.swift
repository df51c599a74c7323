import TLSModel

extension RuleID.Plist {
    /// `plist.review.justification`: A key App Review asks the developer to justify.
    package static let reviewJustification: RuleID = "plist.review.justification"
}

/// Keys App Review asks the developer to justify (docs/apple-rules.md §3.1): `NSAllowsArbitraryLoads`,
/// `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent` and
/// `NSExceptionAllowsInsecureHTTPLoads` set to YES, and `NSExceptionMinimumTLSVersion` below TLSv1.2.
/// Reported as notes naming the key. The TLSv1.2 default and `TLSv1.2`/`TLSv1.3` values are not weaknesses.
struct ReviewJustificationRules: PlistLintRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.reviewJustification, .plist, .note,
                title: "A key App Review asks the developer to justify.",
                help: """
                    `NSAllowsArbitraryLoads`, `NSAllowsArbitraryLoadsForMedia`, `NSAllowsArbitraryLoadsInWebContent`, \
                    `NSExceptionAllowsInsecureHTTPLoads` and `NSExceptionMinimumTLSVersion` below TLS 1.2 need a \
                    justification in App Store Connect and may trigger extra review. Prepare the reason, or fix the \
                    server so the exception is not needed.
                    """)
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        for key in [ATSKey.allowsArbitraryLoads, .allowsArbitraryLoadsForMedia, .allowsArbitraryLoadsInWebContent]
        where c.globalBool(key) == true {
            c.emit(
                RuleID.Plist.reviewJustification, .note,
                "App Review asks for a justification of \(key.name) = YES", at: [key.name])
        }
        for (name, value) in c.exceptionDomains {
            guard let entry = PlistNode.dictionary(value) else { continue }
            let path = [ATSKey.exceptionDomains.name, name]
            if c.entryBool(entry, .exceptionAllowsInsecureHTTPLoads) == true {
                c.emit(
                    RuleID.Plist.reviewJustification, .note,
                    "App Review asks for a justification of NSExceptionAllowsInsecureHTTPLoads = YES for \(name)",
                    at: path + [ATSKey.exceptionAllowsInsecureHTTPLoads.name])
            }
            if let minimum = c.entryMinimumTLS(entry), minimum == "TLSv1.0" || minimum == "TLSv1.1" {
                c.emit(
                    RuleID.Plist.reviewJustification, .note,
                    "App Review asks for a justification of NSExceptionMinimumTLSVersion = \(minimum) (below "
                        + "TLSv1.2) for \(name)",
                    at: path + [ATSKey.exceptionMinimumTLSVersion.name])
            }
        }
    }
}
