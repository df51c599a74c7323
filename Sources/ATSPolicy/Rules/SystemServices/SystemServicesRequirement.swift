import TLSModel

/// Apple's stricter TLS for its own system processes (support article 126655, April 2026; docs/apple-rules.md §4.6):
/// connections made for MDM and declarative device management, Automated Device Enrollment, configuration profile
/// installation, app installation (enterprise distribution included) and software update may be refused, from the
/// 27 releases or a later one, by a server without TLS 1.2 or later, ATS cipher suites and an ATS-compliant
/// certificate. The client ``ClientKind/systemServices`` (`--client system-services`) judges a server that way.
///
/// What is judged: full ATS (§1) with no exception at all — a system process reads no app's
/// `NSAppTransportSecurity`, so neither `NSExceptionDomains`, the global keys nor the local-host exemptions change
/// anything — under the ATS suite list and certificate rules of the release being judged (the 27 releases' own are
/// not published). What the article leaves open is said in the notes (``notes(for:)``), never assumed silently.
enum SystemServicesRequirement {
    /// Apple's article, as the notes and docs cite it.
    static let source = "Apple support article 126655 (April 2026)"

    /// The first major release the article says may enforce the requirement: the 27 releases (iOS, iPadOS, macOS,
    /// watchOS, tvOS, visionOS 27). Not a release atscheck knows the rules of yet.
    static let firstMajor = 27

    /// The policy for every host: ATS as a fresh app with no `NSAppTransportSecurity` gets it, except that local names
    /// and IP literals are not exempt (the article names no such exemption; a system process has no Info.plist whose
    /// `NSAllowsLocalNetworking` could leave it on).
    static func policy(host: String) -> HostPolicy {
        HostPolicy(
            atsRequired: true, httpAllowed: false, minimumTLS: .tls1_2, suites: .ats(forwardSecrecy: true),
            atsKeySizeCheck: true, atsHashCheck: true, niap: false, exception: nil,
            explanation:
                "system services (MDM, device enrollment, profile and app installation, software update): "
                + "\(source) requires TLS 1.2+, ATS cipher suites and an ATS-compliant certificate of \(host); the "
                + "app's NSAppTransportSecurity does not apply")
    }

    /// What the verdict rests on and what is not confirmed, for every endpoint judged as system services.
    /// - Parameter os: the release being judged.
    /// - Returns: notes, in the order the report shows them.
    static func notes(for os: AppleOSVersion) -> [String] {
        var notes: [String] = []
        if os.major < firstMajor {
            notes.append(
                "system services: \(source) says the requirement may be enforced from the \(firstMajor) releases "
                    + "(or a later one); iOS \(os) is not said to enforce it, so this verdict is readiness for that "
                    + "change, not what iOS \(os) does")
        } else {
            notes.append(
                "system services: \(source) says iOS \(firstMajor)+ may enforce the requirement; when it starts is "
                    + "not confirmed")
        }
        notes += [
            "system services: judged with the ATS suite list and certificate rules of iOS \(os); Apple has not "
                + "published those of the \(firstMajor) releases (unconfirmed that they are the same)",
            "system services: Extended Master Secret on TLS 1.2 is named by secondary summaries of \(source), not "
                + "in the article as read, and this scan does not observe it (unconfirmed; not judged)",
            "system services: the article exempts SCEP servers and content caching servers; do not judge those "
                + "with --client system-services",
        ]
        return notes
    }

    /// Finishes an evaluation judged as system services: the notes, and no Info.plist key path on any violation
    /// (no key of the app's Info.plist can fix a server a system process refuses).
    static func finish(_ context: inout RuleContext) {
        context.notes += notes(for: context.os)
        context.violations = context.violations.map { violation in
            var fixed = violation
            fixed.keyPath = nil
            fixed.keyPathComponents = nil
            return fixed
        }
    }
}
