import TLSModel

/// ATS blocks cleartext `http://` loads (NSURLError −1022) unless `NSExceptionAllowsInsecureHTTPLoads`
/// (or a global key that turns ATS off for the host) allows them (reference §0 E1, §1.1).
struct CleartextRule: ATSRule {
    func apply(to context: inout RuleContext) {
        guard context.scheme.lowercased() == "http", !context.policy.httpAllowed else { return }
        context.fail(
            RuleID.ATS.cleartext,
            "http://\(context.host) is cleartext: ATS requires HTTPS (\(context.policy.explanation))",
            keyPath: context.keyPath(.exceptionAllowsInsecureHTTPLoads))
    }
}
