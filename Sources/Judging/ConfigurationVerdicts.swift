import ATSPolicy
import TLSModel

/// The verdicts of one endpoint under each build configuration of a preprocessed Info.plist (issue 32: without
/// `--define`, every configuration the plist's conditions allow is judged).
package enum ConfigurationVerdicts {
    /// How much a verdict weighs when configurations disagree: a failure in any configuration is a failure of the
    /// app built that way, so it wins; then a verdict that cannot be told.
    static func weight(_ verdict: ATSEvaluation.Verdict) -> Int {
        switch verdict {
        case .fail: return 3
        case .ambiguous: return 2
        case .unknown: return 1
        case .pass: return 0
        }
    }

    /// One evaluation from each configuration's: the same one when they agree; otherwise the heaviest verdict, every
    /// violation (those that hold in some configurations only say which), each configuration as a reading, and a
    /// note naming the configurations and their verdicts.
    /// - Parameters:
    ///   - evaluations: one per configuration, in the order of `labels`.
    ///   - labels: each configuration's name (`DEBUG defined`).
    package static func merged(_ evaluations: [ATSEvaluation], labels: [String]) -> ATSEvaluation {
        guard let first = evaluations.first else { return .notEvaluated }
        if evaluations.allSatisfy({ $0.verdict == first.verdict && $0.violations == first.violations }) {
            return first
        }
        let heaviest = evaluations.max { weight($0.verdict) < weight($1.verdict) }!
        var violations: [ATSViolation] = []
        for violation in evaluations.flatMap(\.violations) where !violations.contains(where: { $0 == violation }) {
            violations.append(violation)
        }
        violations = violations.map { violation in
            let holdsIn = zip(evaluations, labels).filter { $0.0.violations.contains(violation) }.map(\.1)
            guard holdsIn.count < evaluations.count else { return violation }
            var scoped = violation
            scoped.message += " (only with \(holdsIn.joined(separator: " or ")))"
            return scoped
        }
        var notes = heaviest.notes
        let verdicts = zip(evaluations, labels).map { "\($0.0.verdict.rawValue) with \($0.1)" }
        notes.append(
            "the verdict depends on the plist's build configuration: \(verdicts.joined(separator: ", ")) (give "
                + "--define for the configuration you build)")
        let readings = zip(evaluations, labels).map {
            ATSEvaluation.Reading(name: "configuration: \($0.1)", verdict: $0.0.verdict, violations: $0.0.violations)
        }
        return ATSEvaluation(
            verdict: heaviest.verdict, violations: violations, osVersion: first.osVersion, notes: notes,
            readings: readings)
    }
}
