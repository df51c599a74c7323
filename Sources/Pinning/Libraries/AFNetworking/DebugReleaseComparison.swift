import Foundation
import TLSModel

/// The seed's case (docs/pinning-rules.md §2): an AFSecurityPolicy with debug relaxations evaluated next to the same
/// mode without them, with the risks of shipping the relaxed build.
package enum DebugReleaseComparison {
    /// Evaluates `options` and its release form side by side.
    /// - Parameters:
    ///   - connection: Host, served chain, time.
    ///   - pinnedCertificates: The pinned certificates.
    ///   - options: The relaxed (debug) configuration.
    ///   - builder: Builds and verifies paths for the served chain.
    /// - Returns: Both evaluations and the risks, or nil when `options` relaxes nothing.
    package static func compare(
        _ connection: PinConnection, pinnedCertificates: [CertificateFacts], options: AFSecurityPolicyOptions,
        builder: some TrustPathBuilding
    ) -> PinDebugReleaseComparison? {
        guard options.isRelaxed else { return nil }
        let debug = AFSecurityPolicyEvaluator.evaluate(
            connection, pinnedCertificates: pinnedCertificates, options: options, builder: builder)
        let release = AFSecurityPolicyEvaluator.evaluate(
            connection, pinnedCertificates: pinnedCertificates, options: options.release, builder: builder)
        return PinDebugReleaseComparison(
            debug: debug, release: release,
            risks: risks(options, pinnedCertificates: pinnedCertificates, debug: debug, release: release))
    }

    /// The risks of shipping `options` (docs/pinning-rules.md §2 "Risks if a DEBUG-relaxed build ships", §1.3 rows 3,
    /// 6, 24).
    /// - Parameters:
    ///   - options: The relaxed configuration.
    ///   - pinnedCertificates: The pinned certificates.
    ///   - debug: Its evaluation.
    ///   - release: The release evaluation.
    /// - Returns: Findings, most severe first.
    package static func risks(
        _ options: AFSecurityPolicyOptions, pinnedCertificates: [CertificateFacts], debug: PinEvaluation,
        release: PinEvaluation
    ) -> [Finding] {
        var out: [Finding] = []
        func add(_ rule: RuleID, _ message: String) {
            out.append(
                Finding(
                    rule: rule, severity: RuleRegistry.pins.descriptor(for: rule)?.severity ?? .warning,
                    message: message))
        }
        let host = debug.host
        let guardFires =
            options.allowInvalidCertificates && options.validatesDomainName
            && (options.mode == .none || pinnedCertificates.isEmpty)
        var noValidation = false
        if options.mode == .none && options.allowInvalidCertificates && !options.validatesDomainName {
            noValidation = true
            add(
                RuleID.Pins.debugNoValidation,
                "debug accepts any certificate for any host: a proxy on the network can read this traffic "
                    + "(AFSSLPinningModeNone, allowInvalidCertificates = YES, validatesDomainName = NO)"
            )
        } else if options.mode == .publicKey && options.allowInvalidCertificates && !pinnedCertificates.isEmpty {
            noValidation = true
            add(
                RuleID.Pins.debugNoValidation,
                "debug accepts expired, self-signed and wrong-host certificates as long as a key in the path equals "
                    + "a pinned key: the trust verdict is never read (PublicKey mode, allowInvalidCertificates = YES)"
            )
        }
        if !options.validatesDomainName && !noValidation && !guardFires {
            let message: String
            switch options.mode {
            case .none:
                message =
                    "debug accepts any valid certificate for any host name (BasicX509, no hostname check): a "
                    + "certificate for another domain from any trusted CA is accepted for \(host)"
            case .certificate, .publicKey:
                let pinsCA = pinnedCertificates.contains { $0.isCA == true }
                message =
                    pinsCA
                    ? "debug accepts any certificate that chains to a pinned CA for any host: anyone who can get a "
                        + "certificate from that CA, for any domain, can intercept \(host)"
                    : "debug accepts a pinned leaf for any host: a key stolen from a server with a pinned "
                        + "certificate (staging) works against \(host) and every other host"
            }
            add(RuleID.Pins.debugAnyHost, message)
        }
        if !options.validatesDomainName && !noValidation {
            add(
                RuleID.Pins.debugHygieneSkipped,
                "debug evaluates under BasicX509: serverAuth EKU, the 825/398-day lifetime caps, key sizes, SHA-1 "
                    + "and CT are not checked, so certificates that fail in release pass in debug"
            )
        }
        if debug.verdict == .accept && release.verdict == .reject {
            let why = release.findings.first { $0.rule == RuleID.Pins.rejected }?.message ?? release.result
            add(
                RuleID.Pins.debugReleaseDiffers,
                "debug accepts \(host) but release rejects it (\(why)): tests run in DEBUG prove nothing about release")
        }
        if options.allowInvalidCertificates {
            add(
                RuleID.Pins.debugAllowInvalid,
                "allowInvalidCertificates = YES skips the system trust evaluation; a distribution build that defines "
                    + "DEBUG ships "
                    + "it\(options.mode == .certificate ? ", and switching to PublicKey mode with it would accept expired and wrong-host certificates (§1.3 row 24)" : "")"
            )
        }
        return out.sorted { $0.severity > $1.severity }
    }
}
