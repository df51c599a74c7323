import Foundation
import TLSModel

extension Baseline {
    /// Applies the baseline to a report.
    ///
    /// Findings matched by a usable, unexpired waiver become notes ("waived until …"); an endpoint whose ATS
    /// violations are all waived (by ATS rule ids such as `ats.tls.forward-secrecy`) has its error findings
    /// waived too and a note added to its `ats.notes`. The endpoint verdicts themselves are left as scanned.
    /// - Parameters:
    ///   - report: the report to filter.
    ///   - now: the time expiry is judged at.
    /// - Returns: the report with waived findings turned into notes and the baseline's own findings appended,
    ///   and the baseline's own findings (`baseline.invalid`, `baseline.expired`, `baseline.unused`) alone.
    package func apply(to report: ScanReport, now: Date) -> (ScanReport, [Finding]) {
        var own: [Finding] = []
        var active: [(index: Int, waiver: Waiver)] = []
        for (index, waiver) in waivers.enumerated() {
            if let problem = waiver.problem {
                own.append(finding(RuleID.Baseline.invalid, .error, "\(problem); it suppresses nothing", waiver))
            } else if let end = waiver.expiryInstant, now >= end {
                own.append(
                    finding(
                        RuleID.Baseline.expired, .error,
                        "the waiver of \(waiver.rule!) for \(waiver.target ?? waiver.keyPath!) expired on "
                            + "\(waiver.expires!) (\(waiver.reason!)): fix the finding or renew the waiver",
                        waiver))
            } else {
                active.append((index, waiver))
            }
        }
        var used = Set<Int>()
        var result = report
        // Endpoints whose every ATS violation is waived.
        var waivedEndpoints: [SourceLocation: Waiver] = [:]
        for (e, endpoint) in report.endpoints.enumerated() where !endpoint.ats.violations.isEmpty {
            var by: Waiver?
            let allWaived = endpoint.ats.violations.allSatisfy { violation in
                guard
                    let hit = active.first(where: {
                        Self.matches($0.waiver.rule!, violation.rule)
                            && Self.matches(target: $0.waiver, endpoint: endpoint)
                    })
                else { return false }
                used.insert(hit.index)
                by = by ?? hit.waiver
                return true
            }
            if allWaived, let by, let source = endpoint.source {
                waivedEndpoints[source] = by
                result.endpoints[e].ats.notes.append("ATS failure waived by \(describe(by))")
            }
        }
        let endpointsByLocation = Dictionary(
            report.endpoints.compactMap { e in e.source.map { ($0, e) } }, uniquingKeysWith: { first, _ in first })
        result.findings = report.findings.map { f in
            let location = f.file.map { SourceLocation(file: $0, line: f.line) }
            let endpoint = location.flatMap { endpointsByLocation[$0] }
            if let hit = active.first(where: { Self.matches($0.waiver, finding: f, endpoint: endpoint) }) {
                used.insert(hit.index)
                return waived(f, by: hit.waiver)
            }
            if f.severity == .error, let location, let by = waivedEndpoints[location] { return waived(f, by: by) }
            return f
        }
        for (index, waiver) in active where !used.contains(index) {
            own.append(
                finding(
                    RuleID.Baseline.unused, .note,
                    "the waiver of \(waiver.rule!) for \(waiver.target ?? waiver.keyPath!) matched nothing: remove it",
                    waiver))
        }
        result.findings += own
        return (result, own)
    }

    func finding(_ rule: RuleID, _ severity: Finding.Severity, _ message: String, _ waiver: Waiver) -> Finding {
        Finding(rule: rule, severity: severity, message: message, file: waiver.source.file, line: waiver.source.line)
    }

    func describe(_ waiver: Waiver) -> String {
        "\(waiver.source.file)\(waiver.source.line.map { ":\($0)" } ?? "") until \(waiver.expires!) (\(waiver.reason!))"
    }

    func waived(_ f: Finding, by waiver: Waiver) -> Finding {
        var copy = f
        copy.severity = .note
        copy.message = "waived by \(describe(waiver)): \(f.message)"
        return copy
    }

    /// A rule pattern: exact, `*`, or a prefix ending in `*`.
    static func matches(_ pattern: String, _ rule: RuleID) -> Bool {
        if pattern.hasSuffix("*") { return rule.rawValue.hasPrefix(pattern.dropLast()) }
        return pattern == rule.rawValue
    }

    /// Whether a waiver names this endpoint (`host` matches every port, `host:port` one).
    static func matches(target waiver: Waiver, endpoint: EndpointResult) -> Bool {
        guard let text = waiver.target, let target = try? Target(parsing: text) else { return false }
        guard target.host == endpoint.profile.host else { return false }
        return !portWritten(text) || target.port == endpoint.profile.port
    }

    /// Whether a target text names a port (`host:8443`, `[::1]:443`, `https://host:8443/x`).
    static func portWritten(_ text: String) -> Bool {
        var rest = Substring(text)
        if let scheme = rest.range(of: "://") { rest = rest[scheme.upperBound...] }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        if rest.hasPrefix("[") { return rest.contains("]:") }
        return rest.filter { $0 == ":" }.count == 1
    }

    static func normalizedKeyPath(_ path: String) -> String {
        path.hasPrefix("NSAppTransportSecurity") ? path : "NSAppTransportSecurity." + path
    }

    /// Whether a waiver covers a finding: same rule, and the finding is about its target or under its key path.
    static func matches(_ waiver: Waiver, finding: Finding, endpoint: EndpointResult?) -> Bool {
        guard matches(waiver.rule!, finding.rule) else { return false }
        if let path = waiver.keyPath, !path.isEmpty, let findingPath = finding.keyPath {
            let want = normalizedKeyPath(path)
            if findingPath == want || findingPath.hasPrefix(want + ".") { return true }
        }
        if let text = waiver.target, !text.isEmpty {
            if let endpoint, matches(target: waiver, endpoint: endpoint) { return true }
            // A target also names its host's exception entry in the plist.
            if let host = (try? Target(parsing: text))?.host, let findingPath = finding.keyPath {
                let entry = "NSAppTransportSecurity.NSExceptionDomains.\(host)"
                if findingPath == entry || findingPath.hasPrefix(entry + ".") { return true }
            }
        }
        return false
    }
}
