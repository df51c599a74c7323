import Foundation
import TLSModel

/// Judges a scanned server against App Transport Security and Apple's trust rules for one OS release
/// (`docs/apple-rules.md` §0 A–F).
///
/// Pure: a function of the profile, the configuration and the OS. Every rule runs and every violation is
/// gathered. Where Apple's sources conflict and the conflict matters for this server, both readings are
/// evaluated; differing verdicts give `ambiguous` with both `readings`, agreeing ones a note.
package struct ATSPolicyEvaluator: Sendable {
    /// The OS release and client whose rules apply.
    package var client: ATSClient
    /// The release whose rules apply (`client.os`).
    package var os: AppleOSVersion { client.os }
    /// The time certificates are judged at; nil: the profile's `verifiedAt` (or its scan time).
    package var now: Date?
    /// Only the certificate rules run (`atscheck cert`: a chain judged before it is served, with no handshake to
    /// judge); the TLS version and cipher-suite rules are skipped.
    package var certificateOnly: Bool

    /// - Parameters:
    ///   - client: the OS release and class of client code (default: URLSession on the newest known release).
    ///   - now: the evaluation time (default: when the chain was verified).
    ///   - certificateOnly: run the certificate (trust) rules only.
    package init(for client: ATSClient = .newest, now: Date? = nil, certificateOnly: Bool = false) {
        self.client = client
        self.now = now
        self.certificateOnly = certificateOnly
    }

    /// Evaluates `profile` for an app with `configuration`.
    /// - Parameters:
    ///   - profile: what the scan found.
    ///   - configuration: the app's `NSAppTransportSecurity` (default: none, full ATS).
    ///   - scheme: `https` or `http` (an `http` URL is judged without the scan).
    /// - Returns: the verdict with every violation, the OS applied, notes, and readings when ambiguous.
    package func evaluate(
        _ profile: ServerProfile, configuration: ATSConfiguration = .default, scheme: String = "https"
    ) -> ATSEvaluation {
        evaluate(profile, host: profile.host, configuration: configuration, scheme: scheme)
    }

    /// Evaluates `profile` for a URL whose host may differ from the profile's (e.g. `--resolve`).
    package func evaluate(
        _ profile: ServerProfile, host: String, configuration: ATSConfiguration = .default, scheme: String = "https"
    ) -> ATSEvaluation {
        detailedEvaluation(profile, host: host, configuration: configuration, scheme: scheme).evaluation
    }

    /// The evaluation plus the reasons an `unknown` verdict could not be decided; a host that a build setting not
    /// given could change is judged under each value (``judgingUnresolved(_:profile:host:configuration:scheme:)``).
    func detailedEvaluation(
        _ profile: ServerProfile, host: String, configuration: ATSConfiguration, scheme: String
    ) -> (evaluation: ATSEvaluation, unknowns: [String]) {
        let (evaluation, unknowns) = evaluationIgnoringUnresolved(
            profile, host: host, configuration: configuration, scheme: scheme)
        // A system process reads no Info.plist: a build setting in it cannot change the verdict.
        guard client.kind.readsAppPolicy else { return (evaluation, unknowns) }
        return (
            judgingUnresolved(evaluation, profile: profile, host: host, configuration: configuration, scheme: scheme),
            unknowns
        )
    }

    /// The evaluation as the configuration is written (an unresolved key governs nothing).
    func evaluationIgnoringUnresolved(
        _ profile: ServerProfile, host: String, configuration: ATSConfiguration, scheme: String
    ) -> (evaluation: ATSEvaluation, unknowns: [String]) {
        let primaryReadings = Readings.primary(for: os)
        let primary = run(profile, host: host, configuration: configuration, scheme: scheme, readings: primaryReadings)
        var notes = primary.notes
        var alternatives: [(ATSConflict, RuleContext)] = []
        for conflict in primary.consulted.sorted() {
            let flipped = primaryReadings.flipped(conflict)
            let other = run(profile, host: host, configuration: configuration, scheme: scheme, readings: flipped)
            let verdictA = Self.verdict(primary)
            let verdictB = Self.verdict(other)
            if verdictA != verdictB {
                alternatives.append((conflict, other))
            } else {
                notes.append(
                    "CONFLICT \(conflict.rawValue): \(conflict.summary); both readings give \(verdictA.rawValue)")
            }
        }
        notes.insert(primary.policy.explanation, at: 0)
        if case .ipLiteral(_, local: true) = HostKind(host: host), os.ipLiteralsRequireATS {
            notes.append(
                "whether iOS 17+ treats loopback and link-local IP literals as local is unconfirmed; use localhost "
                    + "or an explicit IP exception"
            )
        }
        let verdict = Self.verdict(primary)
        guard !alternatives.isEmpty else {
            return (
                ATSEvaluation(
                    verdict: verdict, violations: primary.violations, osVersion: os.description,
                    notes: Self.unique(notes + primary.ambiguities + primary.unknowns),
                    ambiguities: verdict == .ambiguous ? primary.ambiguities : []),
                primary.unknowns
            )
        }
        let primaryName = alternatives.map { primaryReadings.name(of: $0.0) }.joined(separator: "+")
        var readings = [ATSEvaluation.Reading(name: primaryName, verdict: verdict, violations: primary.violations)]
        var union = primary.violations
        for (conflict, context) in alternatives {
            readings.append(
                ATSEvaluation.Reading(
                    name: primaryReadings.flipped(conflict).name(of: conflict), verdict: Self.verdict(context),
                    violations: context.violations))
            union += context.violations.filter { !union.contains($0) }
            notes.append("CONFLICT \(conflict.rawValue): \(conflict.summary); the readings disagree")
        }
        return (
            ATSEvaluation(
                verdict: .ambiguous, violations: union, osVersion: os.description,
                notes: Self.unique(notes + primary.ambiguities), readings: readings, ambiguities: primary.ambiguities),
            primary.unknowns
        )
    }

    func run(
        _ profile: ServerProfile, host: String, configuration: ATSConfiguration, scheme: String, readings: Readings
    ) -> RuleContext {
        var context = runRules(profile, host: host, configuration: configuration, scheme: scheme, readings: readings)
        if !client.kind.readsAppPolicy { SystemServicesRequirement.finish(&context) }
        return context
    }

    private func runRules(
        _ profile: ServerProfile, host: String, configuration: ATSConfiguration, scheme: String, readings: Readings
    ) -> RuleContext {
        var consulted: Set<ATSConflict> = []
        let policy = HostPolicy.resolve(
            host: host, configuration: configuration, for: client, readings: readings, consulted: &consulted)
        var context = RuleContext(
            profile: profile, host: host, scheme: scheme, client: client,
            now: now ?? profile.certificate?.verifiedAt ?? profile.scannedAt, policy: policy, readings: readings)
        context.consulted = consulted
        if let match = policy.exception, !match.builtIn, match.entry.legacyValues != nil,
            !os.mayHonourLegacyExceptionKeys
        {
            context.notes.append(
                "the NSExceptionDomains entry '\(match.key)' uses iOS 9-era "
                    + "NSThirdPartyException…/NSTemporaryException… keys: iOS \(os) probably ignores them (§3.2); "
                    + "use the NSException… keys"
            )
        }
        if scheme.lowercased() == "http" {
            for rule in ATSRules.http { rule.apply(to: &context) }
            return context  // a cleartext load never reaches TLS
        }
        guard profile.status == .completed else {
            context.unknowns.append(
                "the scan did not complete (\(profile.status.rawValue)\(profile.error.map { ": \($0)" } ?? ""))")
            return context
        }
        for rule in (certificateOnly ? [] : ATSRules.tls) + ATSRules.trust { rule.apply(to: &context) }
        return context
    }

    /// A violation fails; otherwise data the checker lacks makes it ambiguous, a probe that could not run unknown.
    static func verdict(_ context: RuleContext) -> ATSEvaluation.Verdict {
        if !context.violations.isEmpty { return .fail }
        if !context.ambiguities.isEmpty { return .ambiguous }
        return context.unknowns.isEmpty ? .pass : .unknown
    }

    static func unique(_ notes: [String]) -> [String] {
        var seen = Set<String>()
        return notes.filter { seen.insert($0).inserted }
    }
}
