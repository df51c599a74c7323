import TLSModel

extension ATSPolicyEvaluator {
    /// The configurations a build setting not given could make for `host` (issue 32): where an `NSExceptionDomains`
    /// key is `$(NAME)`, the configuration in which it names `host` (a host with an entry of its own keeps it); where
    /// the entry governing `host` has a value that is `$(NAME)`, the entry with each value the key can take.
    /// - Returns: each alternative with what it assumes, empty when nothing unresolved touches the host.
    func unresolvedAlternatives(host: String, configuration c: ATSConfiguration) -> [(
        name: String, configuration: ATSConfiguration
    )] {
        var out: [(String, ATSConfiguration)] = []
        var resolved = c
        resolved.unresolvedExceptionDomains = [:]
        if c.exceptionDomains[host] == nil {
            for key in c.unresolvedExceptionDomains.keys.sorted() {
                var alternative = resolved
                alternative.exceptionDomains[host] = c.unresolvedExceptionDomains[key]
                out.append(("if \(key) names \(host)", alternative))
            }
        }
        if let match = c.exception(for: host, os: os, depth: Readings.primary(for: os).depth), !match.builtIn,
            let entry = c.exceptionDomains[match.key], !entry.unresolvedValues.isEmpty
        {
            var values: [(String, ExceptionDomain)] = []
            if entry.unresolvedValues[ATSKey.exceptionMinimumTLSVersion.name] != nil {
                for version in ATSKey.validMinimumTLSVersions {
                    var e = entry
                    e.minimumTLSVersion = TLSVersion(name: version)
                    values.append(("NSExceptionMinimumTLSVersion = \(version)", e))
                }
            }
            if entry.unresolvedValues[ATSKey.exceptionRequiresNIAPTLSPackageVersion.name] != nil {
                for value in [NIAPPackage.none, .fcp21] {
                    var e = entry
                    e.niapPackage = value
                    values.append(("NSExceptionRequiresNIAPTLSPackageVersion = \(value.rawValue)", e))
                }
            }
            for (name, e) in values {
                var alternative = resolved
                alternative.exceptionDomains[match.key] = e
                out.append(("if \(match.key)'s \(name)", alternative))
            }
        }
        return out
    }

    /// `evaluation` judged again under each configuration an unresolved build setting could make: `ambiguous` with
    /// each reading when their verdicts differ (the host cannot be judged until the setting is given), a note when
    /// they agree. Never a verdict that a value atscheck does not know could make wrong.
    func judgingUnresolved(
        _ evaluation: ATSEvaluation, profile: ServerProfile, host: String, configuration: ATSConfiguration,
        scheme: String
    ) -> ATSEvaluation {
        let alternatives = unresolvedAlternatives(host: host, configuration: configuration)
        guard !alternatives.isEmpty else { return evaluation }
        let others = alternatives.map { name, alternative in
            (name, evaluationIgnoringUnresolved(profile, host: host, configuration: alternative, scheme: scheme).0)
        }
        let settings = Set(
            configuration.unresolvedExceptionDomains.keys.flatMap(Self.settingNames)
                + configuration.exceptionDomains.values.flatMap { $0.unresolvedSettingNames })
        let give = "give the build settings (--build-setting NAME=VALUE or --xcconfig) to judge it"
        guard others.contains(where: { $0.1.verdict != evaluation.verdict }) else {
            var same = evaluation
            same.notes.append(
                "the plist refers to build settings that are not given (\(settings.sorted().joined(separator: ", "))); "
                    + "whatever they are, the verdict is the same")
            return same
        }
        var readings = [
            ATSEvaluation.Reading(name: "as written", verdict: evaluation.verdict, violations: evaluation.violations)
        ]
        var union = evaluation.violations
        for (name, other) in others {
            readings.append(ATSEvaluation.Reading(name: name, verdict: other.verdict, violations: other.violations))
            union += other.violations.filter { !union.contains($0) }
        }
        var notes = evaluation.notes
        notes.append(
            "\(host) cannot be judged: the plist refers to build settings that are not given "
                + "(\(settings.sorted().joined(separator: ", "))) and the verdict depends on them; \(give)")
        return ATSEvaluation(
            verdict: .ambiguous, violations: union, osVersion: evaluation.osVersion, notes: notes, readings: readings)
    }

    /// `NAME` for every `$(NAME)` or `${NAME}` in a key.
    static func settingNames(_ key: String) -> [String] {
        BuildSettings().expand(key).unresolved
    }
}
