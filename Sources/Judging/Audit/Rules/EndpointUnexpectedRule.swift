import ATSPolicy
import TLSModel

extension RuleID.Audit {
    /// An endpoint whose verdict differs from its `expect:` (error).
    package static let endpointUnexpected: RuleID = "audit.endpoint.unexpected"
}

/// The endpoint list's `expect:`: `expect: fail` turns the endpoint's failure findings into notes; a verdict against
/// the expectation is an error.
struct EndpointUnexpectedRule: AuditRule {
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Audit.endpointUnexpected, .audit, .error,
                title: "An endpoint whose ATS verdict differs from the expect: in the endpoint list.",
                help: """
                    The endpoint list says `expect: pass` or `expect: fail` and the verdict is the other one: the \
                    server or the plist changed. Fix the regression, or update the expectation.
                    """)
        ]
    }

    func settle(endpoint a: Auditor.Analysis, findings: [Finding]) -> [Finding] {
        guard let expect = a.endpoint.entry.expect, a.judged || a.endpoint.entry.isHTTP else { return findings }
        switch (expect, a.fails) {
        case (.fail, true):
            return findings.map { f in
                guard f.severity == .error else { return f }
                var copy = f
                copy.severity = .note
                copy.message = "expected to fail (expect: fail): " + f.message
                return copy
            }
        case (.fail, false):
            return findings + [
                a.finding(
                    RuleID.Audit.endpointUnexpected, .error,
                    "\(a.label) passes ATS but the endpoint list expects it to fail (expect: fail)")
            ]
        case (.pass, true):
            return findings + [
                a.finding(
                    RuleID.Audit.endpointUnexpected, .error,
                    "\(a.label) fails ATS but the endpoint list expects it to pass")
            ]
        case (.pass, false):
            return findings
        }
    }
}
