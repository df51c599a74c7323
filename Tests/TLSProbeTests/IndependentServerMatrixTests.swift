import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// Servers from TLS stacks this project did not write, each started on loopback with a configuration that is the
/// test's truth, scanned by the real prober and compared field by field (issue 35; docs/independent-servers.md).
///
/// Comparisons the prober cannot get right yet are known issues, each naming its gap: what OpenSSL 3.0 cannot offer
/// (3DES, CAMELLIA-GCM, ARIA-GCM, X25519MLKEM768), Go's order, ClientHellos not shaped like Apple's, and a refusal
/// without an alert taken for a drop. Each such test fails once its gap closes. Every server is scanned twice, in
/// full and ats-only.
@Suite("Independent TLS servers: each configuration is the truth", .serialized)
struct IndependentServerMatrixTests {
    typealias Case = IndependentServerCase
    typealias Accepted = IndependentServerCase.Accepted

    @Test(
        "gnutls-serv", .enabled(if: GnuTLSServe.binary != nil, "gnutls-serv is not installed (make deps)"),
        arguments: gnutlsServeCases)
    func gnutlsServe(_ server: Case) async throws { try await server.run() }

    @Test(
        "lighttpd + mod_gnutls",
        .enabled(if: LighttpdServer.Module.gnutls.isInstalled, "lighttpd-mod-gnutls is not installed (make deps)"),
        arguments: lighttpdGnuTLSCases)
    func lighttpdGnuTLS(_ server: Case) async throws { try await server.run() }

    @Test(
        "lighttpd + mod_mbedtls",
        .enabled(if: LighttpdServer.Module.mbedtls.isInstalled, "lighttpd-mod-mbedtls is not installed (make deps)"),
        arguments: lighttpdMbedTLSCases)
    func lighttpdMbedTLS(_ server: Case) async throws { try await server.run() }

    @Test(
        "lighttpd + mod_wolfssl",
        .enabled(if: LighttpdServer.Module.wolfssl.isInstalled, "lighttpd-mod-wolfssl is not installed (make deps)"),
        arguments: lighttpdWolfSSLCases)
    func lighttpdWolfSSL(_ server: Case) async throws { try await server.run() }

    @Test(
        "lighttpd + mod_nss",
        .enabled(if: LighttpdServer.Module.nss.isInstalled, "lighttpd-mod-nss is not installed (make deps)"),
        arguments: lighttpdNSSCases)
    func lighttpdNSS(_ server: Case) async throws { try await server.run() }

    @Test(
        "lighttpd + mod_openssl (control)",
        .enabled(if: LighttpdServer.Module.openssl.isInstalled, "lighttpd-mod-openssl is not installed (make deps)"),
        arguments: lighttpdOpenSSLCases)
    func lighttpdOpenSSL(_ server: Case) async throws { try await server.run() }

    @Test(
        "Go crypto/tls", .enabled(if: GoTLSServer.go != nil, "go is not installed (make deps: golang-go)"),
        arguments: goTLSCases)
    func goTLS(_ server: Case) async throws { try await server.run() }

    @Test(
        "Java JSSE",
        .enabled(if: JSSEServer.javac != nil && JSSEServer.java != nil, "a JDK is not installed (make deps)"),
        arguments: jsseCases)
    func jsse(_ server: Case) async throws { try await server.run() }

    @Test(
        "tlslite-ng",
        .enabled(if: TLSLiteServer.isInstalled, "tlslite-ng 0.8 and kyber-py are not installed (make deps)"),
        arguments: tlsliteCases)
    func tlslite(_ server: Case) async throws { try await server.run() }
}

// MARK: - The cases

/// Why a comparison cannot be exact yet.
private enum Gap {
    static let tls13Only =
        "the prober's TLS 1.3 ClientHellos offer TLS 1.3 alone, where Apple's captured ones offer TLS 1.2 as well"
}

/// GnuTLS priority strings: no default, everything named (`NONE:…`).
private func priority(_ parts: String...) -> String {
    (["NONE", "+COMP-NULL", "+SIGN-ALL", "+CTYPE-X509"] + parts).joined(separator: ":")
}

private let gnutlsServeCases: [IndependentServerCase] = [
    .init(
        "gnutls-serv: 3DES next to AES-GCM, server order",
        accepts: [.init(.tls1_2, [0xC02F, 0xC030, 0xC012, 0x009C, 0x009D, 0x000A])],
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+ECDHE-RSA", "+RSA", "+AES-128-GCM", "+AES-256-GCM", "+3DES-CBC", "+AEAD", "+SHA1",
                "+CURVE-ALL", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: 3DES only",
        accepts: [.init(.tls1_2, [0xC012, 0x000A])],
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+ECDHE-RSA", "+RSA", "+3DES-CBC", "+SHA1", "+CURVE-ALL", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: CAMELLIA-GCM before AES-GCM",
        accepts: [.init(.tls1_2, [0xC08B, 0xC08A, 0xC02F])],
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+ECDHE-RSA", "+CAMELLIA-256-GCM", "+CAMELLIA-128-GCM", "+AES-128-GCM", "+AEAD",
                "+CURVE-ALL", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: DHE with ffdhe2048 and ffdhe3072 only",
        accepts: [.init(.tls1_2, [0x009E, 0x009F], groups: ["ffdhe2048", "ffdhe3072"])]
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+DHE-RSA", "+AES-128-GCM", "+AES-256-GCM", "+AEAD", "+GROUP-FFDHE2048",
                "+GROUP-FFDHE3072", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: TLS 1.3 and 1.2 with secp384r1 only",
        accepts: [
            .init(.tls1_2, [0xC02F, 0xC030], groups: ["secp384r1"]),
            .init(.tls1_3, [0x1301, 0x1302], groups: ["secp384r1"]),
        ]
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.3", "+VERS-TLS1.2", "+ECDHE-RSA", "+AES-128-GCM", "+AES-256-GCM", "+AEAD",
                "+GROUP-SECP384R1", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: TLS 1.0 and 1.1 enabled",
        accepts: [
            .init(.tls1_0, [0xC013, 0x002F]), .init(.tls1_1, [0xC013, 0x002F]), .init(.tls1_2, [0xC013, 0x002F]),
        ]
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+VERS-TLS1.1", "+VERS-TLS1.0", "+ECDHE-RSA", "+RSA", "+AES-128-CBC", "+SHA1",
                "+CURVE-ALL", "%SERVER_PRECEDENCE"))
    },
    .init(
        "gnutls-serv: ECDSA leaf, TLS 1.3 and 1.2, server order",
        accepts: [.init(.tls1_2, [0xC02C, 0xC02B, 0xCCA9]), .init(.tls1_3, [0x1302, 0x1301, 0x1303])]
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.3", "+VERS-TLS1.2", "+ECDHE-ECDSA", "+AES-256-GCM", "+AES-128-GCM", "+CHACHA20-POLY1305",
                "+AEAD", "+CURVE-ALL", "%SERVER_PRECEDENCE"),
            credentials: .ecdsa)
    },
    .init(
        "gnutls-serv: client order",
        accepts: [.init(.tls1_2, [0xC02F, 0xC030, 0xCCA8], serverOrder: false)]
    ) {
        try GnuTLSServe.start(
            priority: priority(
                "+VERS-TLS1.2", "+ECDHE-RSA", "+AES-128-GCM", "+AES-256-GCM", "+CHACHA20-POLY1305", "+AEAD",
                "+CURVE-ALL"))
    },
]

private let lighttpdGnuTLSCases: [IndependentServerCase] = [
    .init(
        "lighttpd+gnutls: 3DES next to AES-GCM, closes without an alert",
        accepts: [.init(.tls1_2, [0xC02F, 0xC012])],
    ) {
        try LighttpdServer.start(
            .gnutls,
            commands: [
                "gnutls-override": priority(
                    "+VERS-TLS1.2", "+ECDHE-RSA", "+AES-128-GCM", "+3DES-CBC", "+AEAD", "+SHA1", "+CURVE-ALL",
                    "%SERVER_PRECEDENCE")
            ])
    },
    .init(
        "lighttpd+gnutls: TLS 1.3 with X25519 only",
        accepts: [.init(.tls1_3, [0x1301, 0x1302], groups: ["x25519"])],
    ) {
        try LighttpdServer.start(
            .gnutls,
            commands: [
                "gnutls-override": priority(
                    "+VERS-TLS1.3", "+ECDHE-RSA", "+AES-128-GCM", "+AES-256-GCM", "+AEAD", "+GROUP-X25519",
                    "%SERVER_PRECEDENCE")
            ])
    },
]

private let lighttpdMbedTLSCases: [IndependentServerCase] = [
    // mbedTLS 2.28 (Debian 12) always picks by the server's order, and has no TLS 1.3 in this build.
    .init(
        "lighttpd+mbedtls: CAMELLIA-GCM and ARIA-GCM before AES-GCM",
        // Debian 12's mbedTLS 2.28 is built without ARIA (libmbedtls names no ARIA suite), so lighttpd drops the
        // ARIA name from the list: the server accepts the other two.
        accepts: [.init(.tls1_2, [0xC08A, 0xC02F])]
    ) {
        try LighttpdServer.start(
            .mbedtls,
            commands: [
                "Ciphersuites":
                    "TLS-ECDHE-RSA-WITH-CAMELLIA-128-GCM-SHA256:TLS-ECDHE-RSA-WITH-ARIA-128-GCM-SHA256:"
                    + "TLS-ECDHE-RSA-WITH-AES-128-GCM-SHA256"
            ])
    },
    .init(
        "lighttpd+mbedtls: static RSA only",
        accepts: [.init(.tls1_2, [0x009D, 0x002F])]
    ) {
        try LighttpdServer.start(
            .mbedtls, commands: ["Ciphersuites": "TLS-RSA-WITH-AES-256-GCM-SHA384:TLS-RSA-WITH-AES-128-CBC-SHA"])
    },
]

private let lighttpdWolfSSLCases: [IndependentServerCase] = [
    lighttpdWolfSSLNamesCase,
    .init(
        "lighttpd+wolfssl: TLS 1.2 server order, secp384r1 only",
        accepts: [.init(.tls1_2, [0xC030, 0xCCA8, 0xC02F], groups: ["secp384r1"])]
    ) {
        try LighttpdServer.start(
            .wolfssl,
            commands: [
                "MaxProtocol": "TLSv1.2",
                "CipherString": "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-CHACHA20-POLY1305:ECDHE-RSA-AES128-GCM-SHA256",
                "Curves": "secp384r1", "Options": "ServerPreference",
            ])
    },
    .init(
        // mod_wolfssl reads TLS 1.3 suites from CipherString (it ignores Ciphersuites), and its Curves names the one
        // curve of TLS 1.2's ECDHE only: TLS 1.3 groups are wolfSSL's defaults.
        "lighttpd+wolfssl: TLS 1.3 only, server order",
        accepts: [.init(.tls1_3, [0x1302, 0x1301])]
    ) {
        try LighttpdServer.start(
            .wolfssl,
            commands: [
                "MinProtocol": "TLSv1.3", "CipherString": "TLS_AES_256_GCM_SHA384:TLS_AES_128_GCM_SHA256",
                "Options": "ServerPreference",
            ])
    },
]

private let lighttpdWolfSSLNamesCase = IndependentServerCase(
    // With wolfSSL's own TLS 1.3 names, wolfSSL also negotiates 0x1305 (not configured) with a ClientHello that
    // offers TLS 1.3 alone, and refuses it when TLS 1.2 is offered too, as every captured Apple ClientHello does
    // (docs/independent-servers.md).
    "lighttpd+wolfssl: TLS 1.3 suites by wolfSSL's names, as an Apple client sees them",
    accepts: [.init(.tls1_3, [0x1302, 0x1301])],
    gaps: [.on(.suites, .tls1_3): Gap.tls13Only, .on(.order, .tls1_3): Gap.tls13Only]
) {
    try LighttpdServer.start(
        .wolfssl,
        commands: [
            "MinProtocol": "TLSv1.3", "CipherString": "TLS13-AES256-GCM-SHA384:TLS13-AES128-GCM-SHA256",
            "Options": "ServerPreference",
        ])
}

private let lighttpdNSSCases: [IndependentServerCase] = [
    .init(
        "lighttpd+nss: TLS 1.2 ECDHE AES-GCM",
        accepts: [.init(.tls1_2, [0xC02F, 0xC030], serverOrder: true)]
    ) {
        try LighttpdServer.start(
            .nss,
            commands: [
                "MaxProtocol": "TLSv1.2",
                "CipherString": "ECDHE-RSA-AES128-GCM-SHA256:ECDHE-RSA-AES256-GCM-SHA384",
                "Options": "ServerPreference",
            ])
    }
]

private let lighttpdOpenSSLCases: [IndependentServerCase] = [
    .init(
        "lighttpd+openssl: TLS 1.2 and 1.3, server order",
        accepts: [
            .init(.tls1_2, [0xC030, 0xC02F, 0x009C]),
            .init(.tls1_3, [0x1303, 0x1301]),
        ]
    ) {
        try LighttpdServer.start(
            .openssl,
            commands: [
                "MinProtocol": "TLSv1.2",
                "CipherString": "ECDHE-RSA-AES256-GCM-SHA384:ECDHE-RSA-AES128-GCM-SHA256:AES128-GCM-SHA256",
                "Ciphersuites": "TLS_CHACHA20_POLY1305_SHA256:TLS_AES_128_GCM_SHA256",
                "Options": "ServerPreference",
            ])
    }
]

private let goTLSCases: [IndependentServerCase] = [
    .init(
        "go: Go 1.19's defaults (3DES included)",
        accepts: [
            .init(
                .tls1_2, [0xC02F, 0xC030, 0xCCA8, 0xC013, 0xC014, 0x009C, 0x009D, 0x002F, 0x0035, 0xC012, 0x000A],
                chachaFirst: true),
            .init(.tls1_3, GoTLSServer.tls13AESGCMFirstOrder, chachaFirst: true),
        ],
    ) {
        try GoTLSServer.start()
    },
    .init(
        "go: the order an iOS 13+ client gets (configured order ignored)",
        accepts: [.init(.tls1_2, GoTLSServer.appleOrder(of: [0xC030, 0xCCA8, 0xC02F]), chachaFirst: true)],
    ) {
        try GoTLSServer.start(versions: "1.2"..."1.2", suites: [0xC030, 0xCCA8, 0xC02F])
    },
    .init(
        "go: ECDSA leaf, the order an iOS 13+ client gets",
        accepts: [.init(.tls1_2, GoTLSServer.appleOrder(of: [0xC02C, 0xCCA9, 0xC02B, 0xC009]), chachaFirst: true)],
    ) {
        try GoTLSServer.start(versions: "1.2"..."1.2", suites: [0xC02C, 0xCCA9, 0xC02B, 0xC009], credentials: .ecdsa)
    },
    .init(
        "go: TLS 1.3 with X25519 only",
        accepts: [.init(.tls1_3, GoTLSServer.tls13AESGCMFirstOrder, groups: ["x25519"], chachaFirst: true)],
    ) {
        try GoTLSServer.start(versions: "1.3"..."1.3", groups: ["X25519"])
    },
    .init(
        "go: TLS 1.0 and 1.1 enabled",
        accepts: [
            .init(.tls1_0, [0xC013, 0x002F]), .init(.tls1_1, [0xC013, 0x002F]), .init(.tls1_2, [0xC013, 0x002F]),
        ]
    ) {
        try GoTLSServer.start(versions: "1.0"..."1.2", suites: [0x002F, 0xC013])
    },
]

/// JSSE's default `jdk.tls.disabledAlgorithms` (OpenJDK 17) without 3DES_EDE_CBC, TLSv1 and TLSv1.1.
private let jsseLegacyAllowed =
    "SSLv3, RC4, DES, MD5withRSA, DH keySize < 1024, EC keySize < 224, anon, NULL, include jdk.disabled.namedCurves"

private let jsseCases: [IndependentServerCase] = [
    .init(
        "jsse: TLS 1.3 and 1.2, server order, secp384r1 only",
        accepts: [
            .init(.tls1_2, [0xC030, 0xC02F, 0x009C], groups: ["secp384r1"]),
            .init(.tls1_3, [0x1302, 0x1301], groups: ["secp384r1"]),
        ]
    ) {
        try JSSEServer.start(
            protocols: ["TLSv1.3", "TLSv1.2"],
            suites: [
                "TLS_AES_256_GCM_SHA384", "TLS_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_RSA_WITH_AES_128_GCM_SHA256",
            ], honorOrder: true, groups: ["secp384r1"])
    },
    .init(
        "jsse: client order",
        accepts: [.init(.tls1_2, [0xC02F, 0xC030, 0xCCA8], serverOrder: false)]
    ) {
        try JSSEServer.start(
            protocols: ["TLSv1.2"],
            suites: [
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384",
                "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256",
            ], honorOrder: false)
    },
    .init(
        "jsse: 3DES re-enabled after AES-GCM",
        accepts: [.init(.tls1_2, [0xC02F, 0xC012, 0x000A])],
    ) {
        try JSSEServer.start(
            protocols: ["TLSv1.2"],
            suites: [
                "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
                "SSL_RSA_WITH_3DES_EDE_CBC_SHA",
            ], honorOrder: true, disabledAlgorithms: jsseLegacyAllowed)
    },
    .init(
        "jsse: TLS 1.0 and 1.1 re-enabled",
        accepts: [
            .init(.tls1_0, [0xC013, 0x002F]), .init(.tls1_1, [0xC013, 0x002F]), .init(.tls1_2, [0xC013, 0x002F]),
        ]
    ) {
        try JSSEServer.start(
            protocols: ["TLSv1", "TLSv1.1", "TLSv1.2"],
            suites: ["TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "TLS_RSA_WITH_AES_128_CBC_SHA"], honorOrder: true,
            disabledAlgorithms: jsseLegacyAllowed)
    },
]

private let tlsliteCases: [IndependentServerCase] = [
    .init(
        "tlslite: TLS 1.3 with X25519MLKEM768 only",
        accepts: [.init(.tls1_3, [0x1302, 0x1301], groups: ["X25519MLKEM768"])],
        // Only iOS 26 offers X25519MLKEM768: every older era shares no group with the server.
        simulatedGroups: ["26": "X25519MLKEM768", "18": nil, "12.2": nil]
    ) {
        try TLSLiteServer.start(groups: ["x25519mlkem768"], ciphers: ["aes128gcm", "aes256gcm"])
    },
    .init(
        "tlslite: X25519MLKEM768 first, then X25519",
        accepts: [.init(.tls1_3, [0x1302, 0x1301], groups: ["X25519MLKEM768", "x25519"])],
        simulatedGroups: ["26": "X25519MLKEM768", "18": "x25519", "12.2": "x25519"]
    ) {
        try TLSLiteServer.start(groups: ["x25519mlkem768", "x25519"], ciphers: ["aes128gcm", "aes256gcm"])
    },
]
