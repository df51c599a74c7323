import TLSModel

/// ATS blocks cleartext `http://` loads (NSURLError −1022) unless `NSExceptionAllowsInsecureHTTPLoads`
/// (or a global key that turns ATS off for the host) allows them (docs/apple-rules.md §0 E1, §1.1).
struct CleartextRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.ATS.cleartext, .http, .error, title: "A cleartext http:// load that ATS blocks.",
                help: """
                    ATS requires HTTPS: an `http://` load to a host where ATS applies fails with NSURLError −1022 \
                    ("App Transport Security has blocked a cleartext HTTP resource load"), and every redirect hop is \
                    judged again. Serve the host over HTTPS; if that is impossible, an `NSExceptionDomains` entry with \
                    `NSExceptionAllowsInsecureHTTPLoads = YES` allows it (App Review asks why).
                    """,
                appleKey: "NSExceptionAllowsInsecureHTTPLoads")
        ]
    }

    func apply(to context: inout RuleContext) {
        guard context.scheme.lowercased() == "http", !context.policy.httpAllowed else { return }
        context.fail(
            RuleID.ATS.cleartext,
            "http://\(context.host) is cleartext: ATS requires HTTPS (\(context.policy.explanation))",
            keyPath: context.keyPath(.exceptionAllowsInsecureHTTPLoads))
    }
}
