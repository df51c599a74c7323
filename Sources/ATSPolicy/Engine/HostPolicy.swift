import TLSModel

/// The policy `P` that governs one host for one client (docs/apple-rules.md §0 steps C–D, §4.1–§4.5).
package struct HostPolicy: Sendable, Equatable {
    /// Which suites the client offers on TLS 1.2 and earlier.
    package enum SuitePolicy: Sendable, Equatable {
        /// The ATS group; `forwardSecrecy: false` adds the RSA key-exchange suites (§1.3).
        case ats(forwardSecrecy: Bool)
        /// The system stack's default list (ATS off, or insecure HTTP with PFS off): not public (§1.3).
        case systemDefault
    }

    /// Whether ATS applies to the host (false: E3, only system trust).
    package var atsRequired: Bool
    /// Whether `http://` loads are allowed.
    package var httpAllowed: Bool
    package var minimumTLS: TLSVersion
    package var suites: SuitePolicy
    /// The ATS leaf key-size check (dropped by `NSExceptionRequiresForwardSecrecy = NO`, §1.3).
    package var atsKeySizeCheck: Bool
    /// The ATS SHA-2 signature check.
    package var atsHashCheck: Bool
    /// NIAP FCP_v2.1 (iOS 26.4+, opt-in).
    package var niap: Bool
    /// The exception entry in force, if any.
    package var exception: ExceptionMatch?
    /// Why the policy is what it is, in one line.
    package var explanation: String

    /// Resolves the policy for `host`.
    /// - Parameters:
    ///   - index: The configuration's IP index, built once by a caller that resolves many hosts (`--explain`);
    ///     nil: built for this host if it is an IP literal.
    ///   - overlay: One entry replaced or removed (`--explain`'s deciding keys), without copying the configuration.
    ///   - findConflicts: Whether to find the conflicts the resolution consulted; a caller that only compares
    ///     policies (`--explain`'s "what if") skips the extra look-ups.
    static func resolve(
        host: String, configuration c: ATSConfiguration, for judged: ATSClient,
        readings: Readings, consulted: inout Set<ATSConflict>, index: ExceptionIndex? = nil,
        overlay: ExceptionOverlay? = nil, findConflicts: Bool = true
    ) -> HostPolicy {
        let os = judged.os
        let client = judged.kind
        index?.work?.resolved()
        // A system process reads no app's Info.plist: no exception, global key or local-host exemption applies.
        guard client.readsAppPolicy else { return SystemServicesRequirement.policy(host: host) }
        let address = IPAddress(literal: host)
        let resolver = ExceptionResolver(domains: c.exceptionDomains, index: index, overlay: overlay)
        let reading = EntryReading(readings, os: os)
        let match = resolver.match(host, os: os, depth: readings.depth, reading: reading, address: address)
        if findConflicts {
            // §3.2, §3.4: legacy spellings on iOS 9 and per-domain numbers before iOS 18.4 read two ways.
            consulted.formUnion(resolver.parsingConflicts(for: host, os: os, readings: readings, address: address))
            let otherDepth: SubdomainDepth = readings.depth == .anyDepth ? .oneLevel : .anyDepth
            let other = resolver.match(host, os: os, depth: otherDepth, reading: reading, address: address)
            if match != other { consulted.insert(.subdomainDepth) }
        }

        if let match {
            let e = match.entry
            let niapValue = os.supportsNIAPPackage ? (e.niapPackage ?? c.niapPackage) : nil
            let source =
                match.builtIn ? "built-in Apple exception '\(match.key)'" : "NSExceptionDomains entry '\(match.key)'"
            return HostPolicy(
                atsRequired: !e.allowsInsecureHTTPLoads, httpAllowed: e.allowsInsecureHTTPLoads,
                minimumTLS: e.effectiveMinimumTLSVersion,
                suites: e.requiresForwardSecrecy
                    ? .ats(forwardSecrecy: true)
                    : e.allowsInsecureHTTPLoads ? .systemDefault : .ats(forwardSecrecy: false),
                atsKeySizeCheck: e.requiresForwardSecrecy && !e.allowsInsecureHTTPLoads,
                atsHashCheck: !e.allowsInsecureHTTPLoads, niap: niapValue?.isStrict ?? false, exception: match,
                explanation: "\(source) governs \(host); global keys are ignored for it")
        }

        func off(_ why: String) -> HostPolicy {
            HostPolicy(
                atsRequired: false, httpAllowed: true, minimumTLS: .tls1_0, suites: .systemDefault,
                atsKeySizeCheck: false, atsHashCheck: false, niap: false, exception: nil, explanation: why)
        }
        let on = HostPolicy(
            atsRequired: true, httpAllowed: false, minimumTLS: .tls1_2, suites: .ats(forwardSecrecy: true),
            atsKeySizeCheck: true, atsHashCheck: true,
            niap: os.supportsNIAPPackage && (c.niapPackage?.isStrict ?? false), exception: nil,
            explanation: "full ATS applies to \(host)")

        // D2: local hosts (§4.5).
        let kind = HostKind(host: host, address: address)
        if os.hasFineGrainedGlobalKeys && c.allowsLocalNetworking != .no {
            switch kind {
            case .localName:
                return off("\(host) is a local name: exempt from ATS on iOS 10+ unless NSAllowsLocalNetworking = NO")
            case .ipLiteral(_, let local):
                if !os.ipLiteralsRequireATS {
                    return off("IP literals are exempt from ATS on iOS 10–16")
                }
                if c.allowsLocalNetworking == .yes {
                    if local {
                        return off(
                            "NSAllowsLocalNetworking = YES allows loopback and link-local IP literals on iOS 17+")
                    }
                    // §4.5 CONFLICT: the docs re-allow every IP; the Security source only local addresses.
                    consulted.insert(.localNetworkingIP)
                    if readings.localNetworkingAllowsAnyIP {
                        return off("NSAllowsLocalNetworking = YES allows IP literals on iOS 17+")
                    }
                }
            case .publicName: break
            }
        }
        // D3: iOS 9 reads only NSAllowsArbitraryLoads.
        guard os.hasFineGrainedGlobalKeys else {
            return c.allowsArbitraryLoads.isYes ? off("NSAllowsArbitraryLoads = YES turns ATS off on iOS 9") : on
        }
        // D4.
        if client == .media && c.allowsArbitraryLoadsForMedia.isYes {
            return off("NSAllowsArbitraryLoadsForMedia = YES exempts AVFoundation media")
        }
        if client == .wkWebView && c.allowsArbitraryLoadsInWebContent.isYes {
            return off("NSAllowsArbitraryLoadsInWebContent = YES exempts WKWebView")
        }
        if client == .uiWebView && c.allowsArbitraryLoadsInWebContent.isYes {
            consulted.insert(.uiWebView)
            if readings.uiWebViewExempt {
                return off("NSAllowsArbitraryLoadsInWebContent = YES exempts UIWebView (2016–2019 docs)")
            }
        }
        if c.arbitraryLoadsOverridden(on: os) {
            var p = on
            p.explanation = "NSAllowsArbitraryLoads is ignored on iOS 10+ because a fine-grained key is present"
            return p
        }
        return c.arbitraryLoadsInForce(on: os) ? off("NSAllowsArbitraryLoads = YES turns ATS off") : on
    }
}
