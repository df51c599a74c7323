import TLSModel

/// The stable ids of the findings `atscheck audit` adds to the plist and endpoint-list findings.
///
/// Ids never change once published.
public enum AuditRuleID {
    /// An endpoint fails ATS and an `NSExceptionDomains` entry would fix it (error; the message has the entry).
    public static let exceptionMissing = "audit.exception.missing"
    /// An entry relaxes ATS but every endpoint it covers passes under the default policy (warning).
    public static let exceptionUnneeded = "audit.exception.unneeded"
    /// An entry (or NSAllowsArbitraryLoads) grants more than the endpoints need (warning).
    public static let exceptionBroader = "audit.exception.broader"
    /// An `NSExceptionDomains` key that no listed endpoint uses (warning).
    public static let exceptionNoEndpoint = "audit.exception.no-endpoint"
    /// An `http://` endpoint: blocked (error) or allowed by an exception (warning, App Review asks why).
    public static let endpointHTTP = "audit.endpoint.http"
    /// An endpoint fails ATS and no exception can fix it (error: untrusted certificate, no ATS suite…).
    public static let endpointFails = "audit.endpoint.fails"
    /// An endpoint that could not be scanned, so its needs are unknown (warning; exit 2).
    public static let endpointUnscanned = "audit.endpoint.unscanned"
    /// An endpoint whose verdict differs from its `expect:` (error).
    public static let endpointUnexpected = "audit.endpoint.unexpected"

    /// Every rule: id, its usual severity, and a one-line description (SARIF `rules`, documentation).
    public static let catalogue: [(id: String, severity: Finding.Severity, summary: String)] = [
        (exceptionMissing, .error, "An endpoint fails ATS and needs an NSExceptionDomains entry the plist lacks."),
        (exceptionUnneeded, .warning, "An ATS exception whose endpoints all pass under the default policy."),
        (exceptionBroader, .warning, "An ATS exception that relaxes more than its endpoints need."),
        (exceptionNoEndpoint, .warning, "An NSExceptionDomains entry that matches no endpoint in the list."),
        (endpointHTTP, .error, "A cleartext http:// endpoint: blocked by ATS unless an exception allows it."),
        (endpointFails, .error, "An endpoint fails ATS and no exception can make it pass."),
        (endpointUnscanned, .warning, "An endpoint that could not be scanned; its exception needs are unknown."),
        (endpointUnexpected, .error, "An endpoint whose ATS verdict differs from the expect: in the endpoint list."),
        (EndpointListRuleID.invalid, .error, "A line of the endpoint list that is not a URL or host[:port]."),
        (EndpointListRuleID.unknownKey, .warning, "A key of an endpoint entry that atscheck does not read."),
        (EndpointListRuleID.duplicate, .note, "An endpoint listed twice."),
        (BaselineRuleID.invalid, .error, "A baseline waiver without a rule, a target or key path, a reason or a valid expiry date."),
        (BaselineRuleID.expired, .error, "A baseline waiver past its expiry date; it no longer suppresses."),
        (BaselineRuleID.unused, .note, "A baseline waiver that matched nothing."),
        (BaselineRuleID.waived, .note, "A finding suppressed by a baseline waiver (its original rule id is kept)."),
    ]

    /// Rule id → description, for renderers.
    public static var descriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: catalogue.map { ($0.id, $0.summary) })
    }
}
