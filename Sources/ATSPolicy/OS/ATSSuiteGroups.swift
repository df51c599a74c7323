import TLSModel

/// The cipher-suite lists an Apple client offers (docs/apple-rules.md §1.2–§1.4). The ATS group is exactly the list
/// the client offers, so a suite outside it cannot be negotiated.
package enum ATSSuiteGroups {
    /// Which published list of the TLS 1.2 ATS group.
    package enum Era: String, Sendable, CaseIterable {
        /// The 11-suite list Apple documented 2015–2019 (archived Cocoa Keys reference).
        case documented
        /// `CiphersuitesPFS` in Security-59306 … 60157.80.4 (iOS 13 – 15.3).
        case sourceUpTo2022
        /// The group in Security-60158.100.133 … 61901 (iOS 15.4 on): no CBC-SHA256/384 suites.
        case source2022
    }

    typealias S = CipherSuite

    /// TLS 1.2 suites of the ATS group (forward secrecy required), §1.2.
    package static func forwardSecret(_ era: Era) -> [CipherSuite] {
        switch era {
        case .documented:
            return [
                S.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                S.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384, S.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
                S.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, S.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
                S.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
                S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
            ]
        case .sourceUpTo2022:
            return CipherSuite.atsForwardSecretUnion
        case .source2022:
            return [
                S.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
                S.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
                S.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
                S.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
                S.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, S.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
                S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
            ]
        }
    }

    /// The RSA key-exchange suites added by `NSExceptionRequiresForwardSecrecy = NO` (§1.3).
    package static func compatibility(_ era: Era) -> [CipherSuite] {
        switch era {
        case .documented, .sourceUpTo2022:
            return CipherSuite.atsCompatibilityUnion
        case .source2022:
            return [
                S.TLS_RSA_WITH_AES_256_GCM_SHA384, S.TLS_RSA_WITH_AES_128_GCM_SHA256,
                S.TLS_RSA_WITH_AES_256_CBC_SHA, S.TLS_RSA_WITH_AES_128_CBC_SHA,
            ]
        }
    }

    /// TLS 1.3 suites; the documented reading (AES only) leaves out ChaCha20 (§1.4).
    package static func tls13(documented: Bool) -> [CipherSuite] {
        documented
            ? [S.TLS_AES_128_GCM_SHA256, S.TLS_AES_256_GCM_SHA384]
            : [S.TLS_AES_128_GCM_SHA256, S.TLS_AES_256_GCM_SHA384, S.TLS_CHACHA20_POLY1305_SHA256]
    }

    /// NIAP `FCP_v2.1` (iOS 26.4+, opt-in): TLS 1.2 restricted to ECDHE + AES-GCM (§1.4).
    package static let niapTLS12: [CipherSuite] = [
        S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256, S.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384,
        S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256, S.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384,
    ]

    /// The system TLS stack's default list when ATS leaves the suites unset (ATS off, or
    /// `NSExceptionAllowsInsecureHTTPLoads` with `NSExceptionRequiresForwardSecrecy = NO`). Apple does
    /// not publish it (§1.3, §7.6): modelled as every ATS and compatibility suite of any era plus 3DES.
    package static let systemDefaultCertain: [CipherSuite] = {
        var all = forwardSecret(.sourceUpTo2022) + compatibility(.sourceUpTo2022)
        all += [S.TLS_RSA_WITH_3DES_EDE_CBC_SHA, CipherSuite(0xC012), CipherSuite(0xC008)]
        return all
    }()

    /// Suites whose presence in the undocumented system default list is uncertain: finite-field DHE
    /// (docs/apple-rules.md §6 says turning ATS off may help a DHE-only server; no source lists DHE).
    package static func isUncertainInSystemDefault(_ suite: CipherSuite) -> Bool {
        guard let info = suite.info else { return false }
        return info.keyExchange == .dhe && info.authentication == .rsa && info.encryption.hasPrefix("AES")
    }
}
