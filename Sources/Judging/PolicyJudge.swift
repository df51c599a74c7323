import ATSPolicy
import Foundation
import TLSModel

/// An app's ATS configuration read from an Info.plist (or a bare `NSAppTransportSecurity` dictionary).
public struct AppPolicySource: Sendable {
    public var configuration: ATSConfiguration
    /// The file it came from, nil for the default (no dictionary).
    public var file: String?
    /// For a preprocessed Info.plist whose conditions allow several build configurations: each one's name and
    /// configuration (``configuration`` is the first). Empty for a plist with one.
    public var configurations: [(label: String, configuration: ATSConfiguration)] = []

    public static let defaultPolicy = AppPolicySource(configuration: .default, file: nil)

    public init(configuration: ATSConfiguration, file: String?) {
        self.configuration = configuration
        self.file = file
    }

    /// The policy of an already-loaded plist document.
    public init(document: PlistDocument) {
        self.init(configuration: ATSConfiguration(dictionary: document.atsDictionary ?? [:]), file: document.file)
    }

    /// The policy of every build configuration of a plist read as Xcode builds it.
    public init(source: PlistSource) {
        self.init(document: source.document)
        if source.hasConfigurations {
            configurations = source.configurations.map {
                ($0.configuration ?? "", ATSConfiguration(dictionary: $0.atsDictionary ?? [:]))
            }
        }
    }
}

/// Pins an app's configuration carries, judged against a scanned endpoint's served chain (`scan --plist` and its
/// `NSPinnedDomains`). Building a trust path needs OpenSSL, so the implementation lives with the facade.
public protocol EndpointPinJudging: Sendable {
    /// The findings of one endpoint: a rejection as an error, the evaluator's other findings at most warnings;
    /// none when no pin covers its host or it has no served chain.
    /// - Parameters:
    ///   - endpoint: The endpoint, judged.
    ///   - extraAnchors: CA files its own scan trusted besides the run's (an endpoint-list entry's `caFile`).
    /// - Returns: The findings, for the report.
    func findings(for endpoint: EndpointResult, extraAnchors: [String]) -> [Finding]
}

/// Judges profiles under an app policy and OS release.
public struct PolicyJudge: Sendable {
    public var policy: AppPolicySource
    /// The OS release and client whose rules apply.
    public var client: ATSClient
    public var os: AppleOSVersion { client.os }
    /// The policy's pins (`NSPinnedDomains`), checked against each endpoint's served chain; nil: none.
    public var pins: (any EndpointPinJudging)?

    /// The time certificates are judged at (`--at`); nil: when each chain was verified.
    public var now: Date?
    /// Judge certificates only (`atscheck cert`: no handshake, so no TLS version or suite rules).
    public var certificateOnly: Bool

    public init(
        policy: AppPolicySource = .defaultPolicy, for client: ATSClient = .newest, now: Date? = nil,
        certificateOnly: Bool = false
    ) {
        self.policy = policy
        self.client = client
        self.now = now
        self.certificateOnly = certificateOnly
    }

    /// The ATS verdict of one profile; an endpoint that could not be scanned is `unknown`.
    public func judge(_ profile: ServerProfile, scheme: String? = nil) -> ATSEvaluation {
        let scheme = scheme ?? profile.effectiveScheme
        guard profile.status == .completed else {
            return ATSEvaluation(
                verdict: .unknown, osVersion: os.description,
                notes: ["not scanned: \(profile.error ?? profile.status.rawValue)"])
        }
        let evaluator = ATSPolicyEvaluator(for: client, now: now, certificateOnly: certificateOnly)
        var evaluation: ATSEvaluation
        if policy.configurations.count > 1 {
            // Each build configuration the plist's conditions allow is judged; disagreeing verdicts are merged.
            evaluation = ConfigurationVerdicts.merged(
                policy.configurations.map {
                    evaluator.evaluate(profile, configuration: $0.configuration, scheme: scheme)
                },
                labels: policy.configurations.map(\.label))
        } else {
            evaluation = evaluator.evaluate(profile, configuration: policy.configuration, scheme: scheme)
        }
        if let anchor = profile.certificate?.anchor, anchor != .none {
            evaluation.notes.append(
                anchor == .custom
                    ? "chain ends at a --ca-file root: judged as a user- or MDM-installed root (no 398-day cap, no CT)"
                    : "chain ends at a system root: judged as a preinstalled root (398-day cap and CT apply)")
        }
        return evaluation
    }

    /// The pin findings of one endpoint (``pins``); empty without pins.
    /// - Parameters:
    ///   - endpoint: The endpoint, judged.
    ///   - extraAnchors: CA files its own scan trusted besides the run's.
    public func pinFindings(for endpoint: EndpointResult, extraAnchors: [String] = []) -> [Finding] {
        pins?.findings(for: endpoint, extraAnchors: extraAnchors) ?? []
    }

    /// The pin findings of one endpoint, with an `NSPinnedDomains` rejection deciding its ATS verdict
    /// (``ATSEvaluation/fail(byPinRejections:)``): headline, summary, JSON and every format then say fail.
    public func judgePins(of endpoint: inout EndpointResult, extraAnchors: [String] = []) -> [Finding] {
        let findings = pinFindings(for: endpoint, extraAnchors: extraAnchors)
        // NSPinnedDomains is read from iOS 14 on (an older release ignores the key), and only by the app's own
        // connections (a system process reads no app's Info.plist).
        if os.has(.pinnedDomains) && client.kind.readsAppPolicy {
            endpoint.ats.fail(byPinRejections: findings.filter(\.isPinRejection))
        }
        return findings
    }
}

extension Finding {
    /// An error that a pinning policy rejects the served chain (`pins.rejected`): an expected one (`expect: fail`)
    /// is a note and is not.
    public var isPinRejection: Bool { rule == RuleID.Pins.rejected && severity == .error }
}
