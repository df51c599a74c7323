/// The TLS 1.2 suite lists of ATS's widest era (Security sources 2015–2022-03, docs/apple-rules.md §1.2–1.3), which
/// contain every later era's: the policy engine reads them as that era's groups (`ATSSuiteGroups`), and the
/// ATS-only probe offers them so one handshake per group covers every OS release. One list, two users.
extension CipherSuite {
    private typealias S = CipherSuite

    /// Every forward-secret TLS 1.2 suite of any era's ATS group, in the source's order.
    public static let atsForwardSecretUnion: [CipherSuite] = [
        S.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256,
        S.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256,
        S.TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384, S.TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256,
        S.TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256,
        S.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384, S.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256,
        S.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA, S.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA,
        S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384, S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256,
        S.TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA, S.TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA,
    ]

    /// Every RSA key-exchange suite `NSExceptionRequiresForwardSecrecy = NO` adds in any era, in the source's order.
    public static let atsCompatibilityUnion: [CipherSuite] = [
        S.TLS_RSA_WITH_AES_256_GCM_SHA384, S.TLS_RSA_WITH_AES_128_GCM_SHA256,
        S.TLS_RSA_WITH_AES_256_CBC_SHA256, S.TLS_RSA_WITH_AES_128_CBC_SHA256,
        S.TLS_RSA_WITH_AES_256_CBC_SHA, S.TLS_RSA_WITH_AES_128_CBC_SHA,
    ]
}
