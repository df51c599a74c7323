import TLSModel

/// The TLS requirements of ATS under the negotiation model of docs/apple-rules.md §0: the client offers its minimum
/// (`NSExceptionMinimumTLSVersion`, default TLS 1.2) up to TLS 1.3, the server picks the highest version
/// both support, and only then must the suites intersect the client's list (the ATS group of §1.2 for the
/// OS era, plus the RSA key-exchange suites of §1.3 when `NSExceptionRequiresForwardSecrecy = NO`, the TLS
/// 1.3 suites of §1.4, NIAP `FCP_v2.1` restrictions). No fallback to a lower version happens after a suite
/// mismatch. DHE is in no ATS list.
struct NegotiationRule: ATSRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.ATS.minimumVersion, .tls, .error,
                title: "The server's highest TLS version is below the minimum the client offers.",
                help: """
                    ATS offers TLS 1.2 and 1.3 by default (`NSExceptionMinimumTLSVersion` lowers or raises the \
                    floor) and the server picks the highest version both support; a server that stops below the \
                    floor fails the handshake (NSURLError −1200). Also reported when the minimum is TLSv1.3 on an OS \
                    that does not offer TLS 1.3. Enable TLS 1.2 or 1.3 on the server; lowering the minimum with \
                    `NSExceptionMinimumTLSVersion` works but needs an App Review justification.
                    """,
                appleKey: "NSExceptionMinimumTLSVersion"),
            RuleDescriptor(
                RuleID.ATS.handshake, .tls, .error, title: "The server completed no TLS handshake (TLSv1.0–TLSv1.3).",
                help: """
                    Every TLS version was refused, so no Apple client can connect whatever the Info.plist says. \
                    Check that the port speaks TLS and that the server has a certificate and at least one cipher \
                    suite enabled for TLS 1.2 or 1.3.
                    """),
            RuleDescriptor(
                RuleID.ATS.noATSSuite, .tls, .error,
                title: "No cipher suite the server accepts is in the list the client offers.",
                help: """
                    After the TLS version is chosen the suites must intersect the client's list: on TLS 1.2 the ATS \
                    group (ECDHE with AES-GCM, AES-CBC or ChaCha20, by OS era), and there is no fallback to a lower \
                    version after a suite mismatch. Finite-field DHE, 3DES and RC4 are in no ATS list. Enable an \
                    ECDHE-ECDSA or ECDHE-RSA AES-GCM suite on the server. When the server's suite is in the system's \
                    default list, `NSExceptionAllowsInsecureHTTPLoads` lifts the ATS suite list for the host.
                    """),
            RuleDescriptor(
                RuleID.ATS.certificateType, .tls, .error,
                title: "The common cipher suites need a different certificate key type.",
                help: """
                    ECDHE-ECDSA suites need an EC certificate and ECDHE-RSA suites an RSA one. The server accepts ATS \
                    suites, but only ones its certificate cannot be used with, so the handshake fails. Enable the \
                    suites that match the certificate's key (or serve a certificate of the other type); TLS 1.3 \
                    avoids the question.
                    """),
            RuleDescriptor(
                RuleID.ATS.forwardSecrecy, .tls, .error,
                title: "The server accepts only RSA key-exchange suites: no forward secrecy.",
                help: """
                    ATS requires forward secrecy: on TLS 1.2 the client offers only ECDHE suites unless the host's \
                    `NSExceptionRequiresForwardSecrecy` is NO, which adds the RSA key-exchange (ATS compatibility) \
                    suites. Enable ECDHE suites on the server; setting the key to NO works but also drops the ATS \
                    key-size check. Apple's system processes (`--client system-services`, support article 126655) \
                    read no app's Info.plist: for them only the server can fix it.
                    """,
                appleKey: "NSExceptionRequiresForwardSecrecy"),
            RuleDescriptor(
                RuleID.ATS.niap, .tls, .error,
                title: "The server's TLS 1.2 suites fail the NIAP FCP_v2.1 profile.",
                help: """
                    With `NSRequiresNIAPTLSPackageVersion` (or the per-host `NSExceptionRequiresNIAPTLSPackageVersion`) \
                    set to `FCP_v2.1` or `recommended` (iOS 26.4+), TLS 1.2 is limited to ECDHE with AES-GCM \
                    (0xC02B, 0xC02C, 0xC02F, 0xC030) and Extended Master Secret. Enable those suites or TLS 1.3 on the \
                    server, or set the host's key to `none`.
                    """,
                appleKey: "NSExceptionRequiresNIAPTLSPackageVersion"),
        ]
    }

    enum Outcome {
        case pass
        case fail(ATSViolation)
        case unknown(String)
    }

    func apply(to context: inout RuleContext) {
        let profile = context.profile
        let policy = context.policy
        let offersTLS13: Bool
        if let known = context.os.offersTLS13 {
            offersTLS13 = known
        } else {
            if profile.result(for: .tls1_3)?.supported != false { context.consulted.insert(.tls13On12x) }
            offersTLS13 = context.readings.tls13On12x
        }
        let highestOffered: TLSVersion = offersTLS13 ? .tls1_3 : .tls1_2
        if policy.minimumTLS > highestOffered {
            context.fail(
                RuleID.ATS.minimumVersion,
                "NSExceptionMinimumTLSVersion is \(policy.minimumTLS) but \(context.osName) does not offer TLS 1.3",
                keyPath: context.keyPath(.exceptionMinimumTLSVersion))
            return
        }
        let offered = TLSVersion.probed.filter { $0 >= policy.minimumTLS && $0 <= highestOffered }.reversed()

        // Branches: each version of unknown support the server might pick, then the first known one.
        var outcomes: [Outcome] = []
        var definite: TLSVersion?
        for version in offered {
            let supported = profile.result(for: version)?.supported
            if supported == false { continue }
            if supported == nil {
                outcomes.append(
                    version == .tls1_3
                        ? suiteOutcome(version, assumingMandatorySuite: true, &context)
                        : .unknown("whether the server supports \(version) could not be determined"))
                continue
            }
            definite = version
            outcomes.append(suiteOutcome(version, assumingMandatorySuite: false, &context))
            break
        }
        if definite == nil {
            outcomes.append(noCommonVersion(&context, highestOffered: highestOffered))
        }

        context.notes += Self.untested(profile)

        let failures = outcomes.compactMap { if case .fail(let v) = $0 { return v } else { return nil } }
        let unknowns = outcomes.compactMap { if case .unknown(let r) = $0 { return r } else { return nil } }
        if failures.count == outcomes.count, let last = failures.last {
            context.violations.append(last)
        } else if !unknowns.isEmpty || !failures.isEmpty {
            context.unknowns.append(
                unknowns.first ?? "the negotiated TLS version depends on probes that could not run; "
                    + failures.map(\.message).joined(separator: "; "))
        }
    }

    /// `unknown` when the suites found fail but the enumeration stopped early: a suite not found (the
    /// server dropped the connections that would have found it) could be one the client accepts.
    /// An ats-only list is complete for `offered` when every offered suite not found was offered and refused.
    /// A suite newer than the version (a TLS 1.2 AEAD suite at TLS 1.0) cannot be negotiated there, so it is
    /// not asked about.
    static func incomplete(_ result: ProtocolResult?, offered: [CipherSuite]) -> Outcome? {
        guard let result, !result.enumerationComplete else { return nil }
        let negotiable = offered.filter { ($0.info?.minimumVersion ?? .tls1_0) <= result.version }
        if let refused = result.refusedSuites.map(Set.init),
            negotiable.allSatisfy({ refused.contains($0) || result.suites.contains($0) })
        {
            return nil
        }
        let found = result.suites.map(\.ianaName).listed()
        return .unknown(
            "\(result.version) accepts \(found), but its suite list is incomplete "
                + "(\(result.reason ?? "enumeration stopped early")): "
                + "a suite not found could be one the client accepts")
    }

    /// What the scan could not tell, for the notes: versions of unknown support and incomplete suite lists.
    static func untested(_ profile: ServerProfile) -> [String] {
        profile.protocols.compactMap { result in
            if result.supported == nil {
                return "not tested: whether the server supports \(result.version) (\(result.reason ?? "no answer"))"
            }
            if result.supported == true && !result.enumerationComplete {
                return "not tested fully: \(result.version) suites beyond the \(result.cipherSuites.count) found "
                    + "(\(result.reason ?? "enumeration stopped early"))"
            }
            return nil
        }
    }

    /// No offered version is supported by the server.
    func noCommonVersion(_ context: inout RuleContext, highestOffered: TLSVersion) -> Outcome {
        let profile = context.profile
        guard let highest = profile.highestSupportedVersion else {
            if profile.protocols.contains(where: { $0.supported == nil }) {
                return .unknown("no TLS version was confirmed supported")
            }
            return .fail(
                ATSViolation(
                    rule: RuleID.ATS.handshake, message: "the server completed no TLS handshake (TLSv1.0–TLSv1.3)"))
        }
        // A server that accepts only versions above what this client offers (TLS 1.3 only, against iOS 12): the
        // client's limit is the cause, and no Info.plist key raises it. The message names no release: the app report
        // groups one message over the eras it holds for ("— on iOS 12–12.1 only").
        let supported = profile.protocols.filter { $0.supported == true }.map(\.version)
        if let lowest = supported.min(), lowest > highestOffered {
            return .fail(
                ATSViolation(
                    rule: RuleID.ATS.minimumVersion,
                    message:
                        "the server accepts only \(supported.sorted().map(\.description).joined(separator: ", ")), "
                        + "above the highest version this iOS release offers (\(highestOffered)): no version is shared, "
                        + "and no Info.plist key raises the client's maximum"))
        }
        let relax = context.policy.atsRequired || context.policy.suites != .systemDefault
        return .fail(
            ATSViolation(
                rule: RuleID.ATS.minimumVersion,
                message:
                    "the server's highest TLS version is \(highest); \(relax ? "ATS requires" : "the client offers") "
                    + "\(context.policy.minimumTLS) or later",
                keyPath: highest >= .tls1_0 ? context.keyPath(.exceptionMinimumTLSVersion) : nil))
    }

    /// The client's TLS 1.2-and-earlier list under the policy and reading.
    static func offeredSuites(
        policy: HostPolicy, os: AppleOSVersion, documented: Bool, withDHE: Bool
    ) -> [CipherSuite] {
        let era: ATSSuiteGroups.Era =
            documented ? .documented : (os.sourceSuiteEra == .documented ? .sourceUpTo2022 : os.sourceSuiteEra)
        switch policy.suites {
        case .ats(let fs):
            if policy.niap { return ATSSuiteGroups.niapTLS12 }
            return ATSSuiteGroups.forwardSecret(era) + (fs ? [] : ATSSuiteGroups.compatibility(era))
        case .systemDefault:
            return ATSSuiteGroups.systemDefaultCertain
                + (withDHE ? CipherSuite.registry.keys.filter(ATSSuiteGroups.isUncertainInSystemDefault).sorted() : [])
        }
    }

    func suiteOutcome(_ version: TLSVersion, assumingMandatorySuite: Bool, _ context: inout RuleContext) -> Outcome {
        let result = context.profile.result(for: version)
        var serverSuites = result?.suites ?? []
        let policy = context.policy
        let readings = context.readings
        if version == .tls1_3 {
            if serverSuites.isEmpty || assumingMandatorySuite { serverSuites = [.TLS_AES_128_GCM_SHA256] }
            let doc = Set(ATSSuiteGroups.tls13(documented: true))
            let src = Set(ATSSuiteGroups.tls13(documented: false))
            if serverSuites.contains(where: doc.contains) != serverSuites.contains(where: src.contains) {
                context.consulted.insert(.suiteList)
            }
            let offered = readings.documentedSuites ? doc : src
            if serverSuites.contains(where: offered.contains) { return .pass }
            if let incomplete = Self.incomplete(result, offered: Array(offered)) { return incomplete }
            return .fail(
                ATSViolation(
                    rule: RuleID.ATS.noATSSuite,
                    message:
                        "TLSv1.3 accepts only \(serverSuites.map(\.ianaName).listed()): Apple's documentation allows "
                        + "AES only",
                    keyPath: nil))
        }
        if result?.enumerationComplete == false && serverSuites.isEmpty {
            return .unknown("\(version) suites could not be enumerated")
        }
        let os = context.os
        let offered = Self.offeredSuites(
            policy: policy, os: os, documented: readings.documentedSuites, withDHE: readings.systemSuitesIncludeDHE)
        var common = serverSuites.filter(offered.contains)
        // Conflicts consulted: does the other reading change whether any suite is common?
        if case .ats = policy.suites, !policy.niap {
            let other = Self.offeredSuites(
                policy: policy, os: os, documented: !readings.documentedSuites, withDHE: false)
            if serverSuites.contains(where: other.contains) != !common.isEmpty { context.consulted.insert(.suiteList) }
        }
        if policy.suites == .systemDefault {
            let other = Self.offeredSuites(
                policy: policy, os: os, documented: false, withDHE: !readings.systemSuitesIncludeDHE)
            if serverSuites.contains(where: other.contains) != !common.isEmpty {
                context.consulted.insert(.systemDefaultSuites)
            }
        }
        if policy.niap && version == .tls1_2 {
            context.notes.append(
                "NIAP FCP_v2.1 also requires Extended Master Secret on TLS 1.2, which this scan does not observe")
        }
        if common.isEmpty {
            if let incomplete = Self.incomplete(result, offered: offered) { return incomplete }
            return .fail(noSuiteViolation(version, serverSuites: serverSuites, offered: offered, &context))
        }
        // ECDSA suites need an EC certificate, RSA suites an RSA one (§1.2 notes).
        if let keyType = context.leaf?.keyType {
            let matching = common.filter { suite in
                switch suite.info?.authentication {
                case .ecdsa?: return keyType == .ec
                case .rsa?: return keyType == .rsa
                default: return true
                }
            }
            if matching.isEmpty {
                if let incomplete = Self.incomplete(result, offered: offered) { return incomplete }
                return .fail(
                    ATSViolation(
                        rule: RuleID.ATS.certificateType,
                        message:
                            "\(version) accepts only \(common.map(\.ianaName).listed()) but the certificate key is "
                            + "\(keyType): the suite must match the certificate type",
                        keyPath: nil))
            }
            common = matching
        }
        return .pass
    }

    func noSuiteViolation(
        _ version: TLSVersion, serverSuites: [CipherSuite], offered: [CipherSuite], _ context: inout RuleContext
    ) -> ATSViolation {
        let names = serverSuites.map(\.ianaName).listed()
        let policy = context.policy
        let era = context.readings.documentedSuites ? ATSSuiteGroups.Era.documented : context.os.sourceSuiteEra
        var fallback = ""
        if let lower = context.profile.supportedVersions.last(where: {
            $0 < version && $0 >= policy.minimumTLS
                && context.profile.result(for: $0)!.suites.contains(where: offered.contains)
        }) {
            fallback = " (\(lower) would pass, but clients do not fall back to a lower version)"
        }
        let infos = serverSuites.compactMap(\.info)
        if case .ats(forwardSecrecy: true) = policy.suites,
            serverSuites.contains(where: ATSSuiteGroups.compatibility(era).contains)
        {
            return ATSViolation(
                rule: RuleID.ATS.forwardSecrecy,
                message: "\(version) accepts only \(names): no forward secrecy; ATS requires ECDHE\(fallback)",
                keyPath: context.keyPath(.exceptionRequiresForwardSecrecy))
        }
        if policy.niap {
            return ATSViolation(
                rule: RuleID.ATS.niap,
                message:
                    "\(version) accepts only \(names): NIAP FCP_v2.1 allows only ECDHE with AES-GCM on TLS "
                    + "1.2\(fallback)",
                keyPath: context.keyPath(.exceptionRequiresNIAPTLSPackageVersion))
        }
        if !infos.isEmpty && infos.allSatisfy({ $0.keyExchange == .dhe }) {
            return ATSViolation(
                rule: RuleID.ATS.noATSSuite,
                message:
                    "\(version) accepts only \(names): finite-field DHE is in no ATS suite list; only turning ATS "
                    + "off for the host could help\(fallback)",
                keyPath: nil)
        }
        let systemHelps = serverSuites.contains(where: ATSSuiteGroups.systemDefaultCertain.contains)
        let list =
            policy.suites == .systemDefault
            ? "the system's default suite list" : "the ATS suite list of \(context.osName)"
        return ATSViolation(
            rule: RuleID.ATS.noATSSuite,
            message: "\(version) accepts only \(names): none is in \(list)\(fallback)",
            keyPath: systemHelps && policy.suites != .systemDefault
                ? context.keyPath(.exceptionAllowsInsecureHTTPLoads) : nil)
    }
}
