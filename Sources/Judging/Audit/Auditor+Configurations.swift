import ATSPolicy
import TLSModel

extension Auditor {
    /// Audits every build configuration of a preprocessed Info.plist and merges the results (issue 32): each
    /// endpoint's verdict from every configuration (``ConfigurationVerdicts``), the audit findings of every one (those
    /// that hold in some only name them), the exception debt of every one; a plist with one configuration is audited
    /// as ``audit(document:configuration:endpoints:findings:)`` does.
    /// - Parameters:
    ///   - configurations: the plist's configurations, each naming itself when there are several.
    ///   - endpoints: the entries with their profiles.
    ///   - findings: the lint and list findings, put first as they are.
    package func audit(configurations: [PlistDocument], endpoints: [Endpoint], findings: [Finding]) -> AuditResult {
        guard configurations.count > 1 else {
            return audit(document: configurations[0], endpoints: endpoints, findings: findings)
        }
        let results = configurations.map { audit(document: $0, endpoints: endpoints) }
        let labels = configurations.map { $0.configuration ?? "" }
        var merged = results[0]
        merged.report.endpoints = merged.report.endpoints.indices.map { index in
            var endpoint = results[0].report.endpoints[index]
            endpoint.ats = ConfigurationVerdicts.merged(results.map { $0.report.endpoints[index].ats }, labels: labels)
            return endpoint
        }
        merged.report.findings =
            findings + PlistLinter.mergingConfigurations(results.map(\.report.findings), labels: labels)
        var debt: [ExceptionDebt] = []
        for item in results.flatMap(\.exceptionDebt) where !debt.contains(item) { debt.append(item) }
        merged.exceptionDebt = debt
        return merged
    }
}
