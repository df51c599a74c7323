/// The OWASP mobile standards a rule checks: the MASVS control (v2) and the MASTG test where one applies, so mobile
/// security teams can filter atscheck's alerts the way they file their own (SARIF rule `properties`, `atscheck rules`,
/// docs/rules.md).
///
/// The controls: MASVS-NETWORK-1 "the app secures all network traffic according to the current best practices",
/// MASVS-NETWORK-2 "the app performs identity pinning for all remote endpoints under the developer's control". The
/// iOS tests of the MASTG's MASVS-NETWORK chapter: MASTG-TEST-0065 data encryption on the network (cleartext, ATS
/// disabled), MASTG-TEST-0066 the TLS settings (ATS and its exceptions), MASTG-TEST-0067 endpoint identity verification
/// (the certificate and its trust), MASTG-TEST-0068 custom certificate stores and certificate pinning. The test ids are
/// those of the MASTG (OWASP/owasp-mastg, tests/ios/MASVS-NETWORK/, read 2026-11-26).
public struct RuleStandards: Sendable, Equatable {
    /// MASVS v2 controls, e.g. `MASVS-NETWORK-1`.
    public var masvs: [String]
    /// MASTG test ids, e.g. `MASTG-TEST-0066`.
    public var mastg: [String]

    /// - Parameters:
    ///   - masvs: MASVS v2 controls.
    ///   - mastg: MASTG test ids.
    public init(masvs: [String] = [], mastg: [String] = []) {
        self.masvs = masvs
        self.mastg = mastg
    }

    /// Both lists, controls first: the tags a SARIF rule carries.
    public var tags: [String] { masvs + mastg }

    static let network1 = "MASVS-NETWORK-1"
    static let network2 = "MASVS-NETWORK-2"
    /// Cleartext traffic and ATS turned off.
    static let cleartext = RuleStandards(masvs: [network1], mastg: ["MASTG-TEST-0065"])
    /// ATS's TLS requirements and the exceptions that relax them.
    static let tlsSettings = RuleStandards(masvs: [network1], mastg: ["MASTG-TEST-0066"])
    /// The server's certificate and the trust in it.
    static let identity = RuleStandards(masvs: [network1], mastg: ["MASTG-TEST-0067"])
    /// Pins and the stores they trust.
    static let pinning = RuleStandards(masvs: [network2], mastg: ["MASTG-TEST-0068"])
    /// Network security in general, no one test.
    static let network = RuleStandards(masvs: [network1])
}

extension RuleDescriptor {
    /// The MASVS control and MASTG test the rule checks; empty for rules about atscheck's own inputs (endpoint
    /// lists, baselines, unreadable files) and scans that did not finish.
    public var standards: RuleStandards {
        let id = self.id.rawValue
        switch family {
        case .verdict, .tls: return .tlsSettings
        case .http: return .cleartext
        case .trust: return .identity
        // Notes about an endpoint are information, not a test the endpoint fails: no `security-severity`.
        case .scan, .info, .endpoints, .baseline: return RuleStandards()
        case .pins: return .pinning
        // A requirement beyond ATS that a team opted into (`--require-pq`): network security in general.
        case .required: return .network
        case .plist:
            if id.hasPrefix("plist.pinning.") { return .pinning }
            if id == "plist.dead.arbitrary-loads-ignored" { return .cleartext }
            return .tlsSettings
        case .audit:
            if id.hasPrefix("audit.pinned-domain.") { return .pinning }
            if id == "audit.endpoint.http" { return .cleartext }
            if id == "audit.endpoint.unscanned" { return RuleStandards() }
            return .tlsSettings
        case .app:
            if id.hasPrefix("app.pins.") || id.hasPrefix("app.trustkit.") || id == "app.library.linked" {
                return .pinning
            }
            if id == "app.ats.absent" { return .cleartext }
            if id == "app.file.skipped" { return RuleStandards() }
            return .network
        }
    }
}
