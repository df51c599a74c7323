/// ClientHellos of Apple's TLS stacks, one per era, for simulation (issue 36) and for testing the builder.
///
/// Facts (codepoints, orders, lengths) come from captured hellos: SSL Labs' client captures and hand-made Wireshark
/// captures kept in testssl.sh's etc/client-simulation.txt (copied into Tests/TLSHelloTests/Captures by
/// scripts/apple-hello-captures/extract.py), and where no capture exists, from fingerprint projects that replay a
/// captured hello (utls, curl-impersonate) or from inference. Each profile's ``HelloProfile/source`` says which and
/// how sure it is; docs/clienthello-engine.md tells the eras apart. The hello follows the OS's TLS stack, not the
/// Safari version, so one profile serves an OS release's Safari and its URLSession apps unless noted.
extension HelloProfile {
    /// Every Apple profile, oldest first.
    package static var apple: [HelloProfile] {
        [
            ios9URLSessionATS, ios9Safari, ios9URLSessionNoATS, ios10Safari, ios12_2, ios14, ios15_4, ios17, ios18,
            ios26, ios26URLSession, ios26URLSessionOlderSDK,
        ]
    }

    /// The Apple profile named `name` (e.g. `ios9-urlsession-ats`).
    package static func apple(named name: String) -> HelloProfile? { apple.first { $0.name == name } }

    private static let g = HelloProfile.grease
    private static let alpnIOS9 = ["h2", "h2-16", "h2-15", "h2-14", "spdy/3.1", "spdy/3", "http/1.1"]
    private static let sigalgsIOS9: [UInt16] = [0x0501, 0x0401, 0x0201, 0x0503, 0x0403, 0x0203]
    private static let sigalgsIOS12: [UInt16] = [
        0x0403, 0x0804, 0x0401, 0x0503, 0x0203, 0x0805, 0x0805, 0x0501, 0x0806, 0x0601, 0x0201,
    ]
    /// iOS 18 drops ecdsa_sha1 (0x0203); 0x0805 stays listed twice, as captured.
    private static let sigalgsIOS18: [UInt16] = [
        0x0403, 0x0804, 0x0401, 0x0503, 0x0805, 0x0805, 0x0501, 0x0806, 0x0601, 0x0201,
    ]
    private static let suitesSafari9: [UInt16] = [
        0x00FF, 0xC02C, 0xC02B, 0xC024, 0xC023, 0xC00A, 0xC009, 0xC008, 0xC030, 0xC02F, 0xC028, 0xC027, 0xC014, 0xC013,
        0xC012, 0x009D, 0x009C, 0x003D, 0x003C, 0x0035, 0x002F, 0x000A, 0xC007, 0xC011, 0x0005, 0x0004,
    ]
    private static let extensionsIOS9: [HelloExtension] = [
        .serverName, .supportedGroups([0x0017, 0x0018, 0x0019]), .ecPointFormats, .signatureAlgorithms(sigalgsIOS9),
        .nextProtocolNegotiation, .alpn(alpnIOS9), .statusRequest, .signedCertificateTimestamp,
    ]
    /// The TLS 1.2 part of the iOS 15.4 – 26 lists: AEAD first, no CBC-SHA256/384, 3DES last.
    private static let suitesTLS12Since15_4: [UInt16] = [
        0xC02C, 0xC02B, 0xCCA9, 0xC030, 0xC02F, 0xCCA8, 0xC00A, 0xC009, 0xC014, 0xC013, 0x009D, 0x009C, 0x0035, 0x002F,
        0xC008, 0xC012, 0x000A,
    ]

    /// iOS 9 URLSession with ATS enforced: the 11 forward-secret suites of Apple's ATS documentation, TLS 1.2 only,
    /// record version 0x0303. Exact: SSL Labs' "Apple ATS 9 / iOS 9" capture.
    package static let ios9URLSessionATS = HelloProfile(
        name: "ios9-urlsession-ats",
        source: "exact: SSL Labs capture \"Apple ATS 9 iOS 9\" (testssl.sh etc/client-simulation.txt)",
        recordVersion: 0x0303,
        cipherSuites: [0x00FF, 0xC02C, 0xC02B, 0xC024, 0xC00A, 0xC023, 0xC009, 0xC030, 0xC02F, 0xC028, 0xC027, 0xC013],
        extensions: extensionsIOS9)

    /// Safari 9 on iOS 9 (and OS X 10.11): TLS 1.0–1.2, RC4 and 3DES still offered at the end.
    package static let ios9Safari = HelloProfile(
        name: "ios9-safari",
        source: "exact: SSL Labs captures \"Safari 9 iOS 9\" and \"Safari 9 OS X 10.11\" (testssl.sh)",
        cipherSuites: suitesSafari9, extensions: extensionsIOS9)

    /// iOS 9 URLSession with ATS off (NSAllowsArbitraryLoads): the system default list, which is Safari 9's.
    package static let ios9URLSessionNoATS = HelloProfile(
        name: "ios9-urlsession-no-ats",
        source: "partial: suite order as posted by Apple DTS (developer forums thread 18625), equal to the Safari 9 "
            + "capture; extensions assumed as Safari 9's",
        cipherSuites: suitesSafari9, extensions: extensionsIOS9)

    /// Safari 10 on iOS 10: RC4 gone, extended_master_secret added, eight signature algorithms.
    package static let ios10Safari = HelloProfile(
        name: "ios10-safari",
        source: "exact: SSL Labs capture \"Safari 10 iOS 10\" (testssl.sh)",
        cipherSuites: Array(suitesSafari9.prefix(22)),
        extensions: [
            .serverName, .supportedGroups([0x0017, 0x0018, 0x0019]), .ecPointFormats,
            .signatureAlgorithms([0x0401, 0x0201, 0x0501, 0x0601, 0x0403, 0x0203, 0x0503, 0x0603]),
            .nextProtocolNegotiation, .alpn(alpnIOS9), .statusRequest, .signedCertificateTimestamp,
            .extendedMasterSecret,
        ])

    /// iOS 12.2 (TLS 1.3 on, ChaCha20 first among the TLS 1.3 suites, an x25519 share, padding to 512).
    package static let ios12_2 = HelloProfile(
        name: "ios12.2",
        source: "exact: Wireshark capture \"Safari 13.0 (macOS 10.14.6)\", the same stack as iOS 12.2, whose own "
            + "capture (\"Safari 12.1 (iOS 12.2)\") is a resumption with the same layout plus pre_shared_key (testssl.sh)",
        sessionIDLength: 32,
        cipherSuites: [
            0x1303, 0x1301, 0x1302, 0xC02C, 0xC02B, 0xC024, 0xC023, 0xC00A, 0xC009, 0xCCA9, 0xC030, 0xC02F, 0xC028,
            0xC027,
            0xC014, 0xC013, 0xCCA8, 0x009D, 0x009C, 0x003D, 0x003C, 0x0035, 0x002F, 0xC008, 0xC012, 0x000A,
        ],
        extensions: [
            .renegotiationInfo, .serverName, .extendedMasterSecret, .signatureAlgorithms(sigalgsIOS12), .statusRequest,
            .nextProtocolNegotiation, .signedCertificateTimestamp, .alpn(alpnIOS9), .ecPointFormats,
            .keyShare([0x001D]),
            .pskKeyExchangeModes, .supportedVersions([0x0304, 0x0303, 0x0302, 0x0301]),
            .supportedGroups([0x001D, 0x0017, 0x0018, 0x0019]), .padding(toRecordLength: 512),
        ])

    private static func modernExtensions(
        groups: [UInt16], shares: [UInt16], sigalgs: [UInt16], versions: [UInt16], compressCertificate: Bool,
        padding: Bool
    )
        -> [HelloExtension]
    {
        var list: [HelloExtension] = [
            .grease, .serverName, .extendedMasterSecret, .renegotiationInfo, .supportedGroups(groups), .ecPointFormats,
            .alpn(["h2", "http/1.1"]), .statusRequest, .signatureAlgorithms(sigalgs), .signedCertificateTimestamp,
            .keyShare(shares), .pskKeyExchangeModes, .supportedVersions(versions),
        ]
        if compressCertificate { list.append(.compressCertificate) }
        list.append(.grease)
        if padding { list.append(.padding(toRecordLength: 512)) }
        return list
    }

    /// iOS 14 to 15.3: GREASE, AEAD suites ahead of CBC, ALPN down to h2 and http/1.1.
    package static let ios14 = HelloProfile(
        name: "ios14",
        source: "spec: utls HelloIOS_14 and curl-impersonate \"Safari 15.3 on macOS 11.6.4\" (no raw bytes)",
        sessionIDLength: 32,
        cipherSuites: [
            g, 0x1301, 0x1302, 0x1303, 0xC02C, 0xC02B, 0xCCA9, 0xC030, 0xC02F, 0xCCA8, 0xC024, 0xC023, 0xC00A, 0xC009,
            0xC028, 0xC027, 0xC014, 0xC013, 0x009D, 0x009C, 0x003D, 0x003C, 0x0035, 0x002F, 0xC008, 0xC012, 0x000A,
        ],
        extensions: modernExtensions(
            groups: [g, 0x001D, 0x0017, 0x0018, 0x0019], shares: [g, 0x001D], sigalgs: sigalgsIOS12,
            versions: [g, 0x0304, 0x0303, 0x0302, 0x0301], compressCertificate: false, padding: true))

    /// iOS 15.4 to 17: CBC-SHA256/384 suites gone, compress_certificate (zlib) added.
    package static let ios15_4 = HelloProfile(
        name: "ios15.4",
        source: "exact: Wireshark capture \"Safari 15.4 (macOS 12.3.1)\", the stack of iOS 15.4 (testssl.sh)",
        sessionIDLength: 32, cipherSuites: [g, 0x1301, 0x1302, 0x1303] + suitesTLS12Since15_4,
        extensions: modernExtensions(
            groups: [g, 0x001D, 0x0017, 0x0018, 0x0019], shares: [g, 0x001D], sigalgs: sigalgsIOS12,
            versions: [g, 0x0304, 0x0303, 0x0302, 0x0301], compressCertificate: true, padding: true))

    /// iOS 17: the iOS 15.4 shape, ecdsa_sha1 still offered (iOS 18 drops it).
    package static let ios17 = variant(
        of: ios15_4, name: "ios17",
        source:
            "inferred: no capture of iOS 17's own stack; curl-impersonate's \"Safari 17.2 iOS\" and \"Safari 17.0 macOS\" "
            + "signatures (field lists, no raw bytes) equal the Safari 15.4 capture, ecdsa_sha1 included")

    /// iOS 18: as 15.4 without ecdsa_sha1.
    package static let ios18 = HelloProfile(
        name: "ios18",
        source:
            "exact: Wireshark captures \"Safari 18.4 (iOS 18.4)\" and \"Safari 18.4 (macOS 15.4/iOS 18.4)\" (testssl.sh)",
        sessionIDLength: 32, cipherSuites: [g, 0x1301, 0x1302, 0x1303] + suitesTLS12Since15_4,
        extensions: modernExtensions(
            groups: [g, 0x001D, 0x0017, 0x0018, 0x0019], shares: [g, 0x001D], sigalgs: sigalgsIOS18,
            versions: [g, 0x0304, 0x0303, 0x0302, 0x0301], compressCertificate: true, padding: true))

    /// iOS 26 Safari: X25519MLKEM768 first with a 1216-byte share, AES-256-GCM first, TLS 1.2–1.3 only, no padding
    /// (the hello is over 1500 bytes).
    package static let ios26 = HelloProfile(
        name: "ios26",
        source:
            "exact: Wireshark captures \"Safari 26.4 (iOS+iPadOS 26.4)\" and \"Safari 26.4 (macOS/iOS/iPadOS 26.4)\" "
            + "(testssl.sh); Apple support article 122756 for X25519MLKEM768",
        sessionIDLength: 32, cipherSuites: [g, 0x1302, 0x1303, 0x1301] + suitesTLS12Since15_4,
        extensions: modernExtensions(
            groups: [g, 0x11EC, 0x001D, 0x0017, 0x0018, 0x0019], shares: [g, 0x11EC, 0x001D], sigalgs: sigalgsIOS18,
            versions: [g, 0x0304, 0x0303], compressCertificate: true, padding: false))

    /// iOS 26 URLSession in an app linked with the iOS 26 SDK: Safari 26's hello (same system stack).
    package static let ios26URLSession = variant(
        of: ios26, name: "ios26-urlsession",
        source:
            "inferred: the Safari 26.4 capture (same system TLS stack) and Apple support article 122756 "
            + "(URLSession and Network.framework offer X25519MLKEM768 with a key share); an app linked with an older "
            + "SDK also offers TLS 1.0/1.1 (ios26-urlsession-older-sdk)")

    /// iOS 26 URLSession in an app linked with an SDK older than iOS 26's (built with Xcode 16 or before): iOS 26's
    /// hello with supported_versions down to TLS 1.0. Security-61901 makes TLS 1.2 the system's default minimum
    /// only for programs linked with the fall-2025 SDKs (`sec_protocol_options_get_default_min_tls_protocol_version`
    /// in protocol/SecProtocol.c; it was TLS 1.0 for every program in Security-61439, iOS 18). Where ATS applies to
    /// a host its minimums raise the floor to TLS 1.2 again (`sec_protocol_configuration_copy_transformed_options`),
    /// so this hello is the one of a host ATS does not govern (NSAllowsArbitraryLoads) or whose exception lowers the
    /// minimum (NSExceptionMinimumTLSVersion).
    package static let ios26URLSessionOlderSDK = variant(
        of: ios26URLSession, name: "ios26-urlsession-older-sdk",
        source:
            "inferred: the iOS 26 URLSession hello with TLS 1.1 and 1.0 offered, from Apple's Security-61901 source "
            + "(protocol/SecProtocol.c, sec_protocol_options_get_default_min_tls_protocol_version: TLS 1.2 minimum "
            + "only for programs linked against the fall-2025 SDKs, else TLS 1.0); not captured"
    ) { profile in
        profile.extensions = profile.extensions.map { item in
            guard case .supportedVersions(let versions) = item else { return item }
            return .supportedVersions(versions + [0x0302, 0x0301])
        }
    }

    /// `base` under another name and source, changed by `change`: a profile inferred from a captured one.
    private static func variant(
        of base: HelloProfile, name: String, source: String, _ change: (inout HelloProfile) -> Void = { _ in }
    ) -> HelloProfile {
        var profile = base
        profile.name = name
        profile.source = source
        change(&profile)
        return profile
    }
}
