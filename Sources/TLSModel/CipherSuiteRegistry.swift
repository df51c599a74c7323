// The cipher-suite registry.
//
// Source: the IANA "TLS Cipher Suites" registry, restricted to the suites that Debian 12's
// OpenSSL 3.0 implements (`openssl ciphers -V -stdname 'ALL:COMPLEMENTOFALL:@SECLEVEL=0'`,
// plus the TLS 1.3 CCM suites it supports but does not enable by default), and a few
// well-known suites it cannot offer (3DES, RC4, single DES, the SCSVs) so that codes seen
// elsewhere still read well. Key exchange, authentication, encryption and MAC are as OpenSSL
// reports them. "Minimum version" is the protocol OpenSSL lists the suite under: TLSv1.0 for
// suites usable from SSL 3.0/TLS 1.0 on, TLSv1.2 for SHA-256/384 and AEAD suites.

extension CipherSuite {
    static let registryTable: [CipherSuiteInfo] = [
        .init(0x0001, "TLS_RSA_WITH_NULL_MD5", "NULL-MD5", .tls1_0, .rsa, .rsa, "None", "MD5"),
        .init(0x0002, "TLS_RSA_WITH_NULL_SHA", "NULL-SHA", .tls1_0, .rsa, .rsa, "None", "SHA1"),
        .init(0x0004, "TLS_RSA_WITH_RC4_128_MD5", "RC4-MD5", .tls1_0, .rsa, .rsa, "RC4(128)", "MD5"),
        .init(0x0005, "TLS_RSA_WITH_RC4_128_SHA", "RC4-SHA", .tls1_0, .rsa, .rsa, "RC4(128)", "SHA1"),
        .init(0x0009, "TLS_RSA_WITH_DES_CBC_SHA", "DES-CBC-SHA", .tls1_0, .rsa, .rsa, "DES(56)", "SHA1"),
        .init(0x000A, "TLS_RSA_WITH_3DES_EDE_CBC_SHA", "DES-CBC3-SHA", .tls1_0, .rsa, .rsa, "3DES(168)", "SHA1"),
        .init(
            0x0016, "TLS_DHE_RSA_WITH_3DES_EDE_CBC_SHA", "DHE-RSA-DES-CBC3-SHA", .tls1_0, .dhe, .rsa, "3DES(168)",
            "SHA1"),
        .init(0x002C, "TLS_PSK_WITH_NULL_SHA", "PSK-NULL-SHA", .tls1_0, .psk, .psk, "None", "SHA1"),
        .init(0x002D, "TLS_DHE_PSK_WITH_NULL_SHA", "DHE-PSK-NULL-SHA", .tls1_0, .dhePSK, .psk, "None", "SHA1"),
        .init(0x002E, "TLS_RSA_PSK_WITH_NULL_SHA", "RSA-PSK-NULL-SHA", .tls1_0, .rsaPSK, .rsa, "None", "SHA1"),
        .init(0x002F, "TLS_RSA_WITH_AES_128_CBC_SHA", "AES128-SHA", .tls1_0, .rsa, .rsa, "AES(128)", "SHA1"),
        .init(
            0x0032, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA", "DHE-DSS-AES128-SHA", .tls1_0, .dhe, .dss, "AES(128)", "SHA1"),
        .init(
            0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", "DHE-RSA-AES128-SHA", .tls1_0, .dhe, .rsa, "AES(128)", "SHA1"),
        .init(
            0x0034, "TLS_DH_anon_WITH_AES_128_CBC_SHA", "ADH-AES128-SHA", .tls1_0, .dhe, .anonymous, "AES(128)", "SHA1"),
        .init(0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", "AES256-SHA", .tls1_0, .rsa, .rsa, "AES(256)", "SHA1"),
        .init(
            0x0038, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA", "DHE-DSS-AES256-SHA", .tls1_0, .dhe, .dss, "AES(256)", "SHA1"),
        .init(
            0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", "DHE-RSA-AES256-SHA", .tls1_0, .dhe, .rsa, "AES(256)", "SHA1"),
        .init(
            0x003A, "TLS_DH_anon_WITH_AES_256_CBC_SHA", "ADH-AES256-SHA", .tls1_0, .dhe, .anonymous, "AES(256)", "SHA1"),
        .init(0x003B, "TLS_RSA_WITH_NULL_SHA256", "NULL-SHA256", .tls1_2, .rsa, .rsa, "None", "SHA256"),
        .init(0x003C, "TLS_RSA_WITH_AES_128_CBC_SHA256", "AES128-SHA256", .tls1_2, .rsa, .rsa, "AES(128)", "SHA256"),
        .init(0x003D, "TLS_RSA_WITH_AES_256_CBC_SHA256", "AES256-SHA256", .tls1_2, .rsa, .rsa, "AES(256)", "SHA256"),
        .init(
            0x0040, "TLS_DHE_DSS_WITH_AES_128_CBC_SHA256", "DHE-DSS-AES128-SHA256", .tls1_2, .dhe, .dss, "AES(128)",
            "SHA256"),
        .init(
            0x0041, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA", "CAMELLIA128-SHA", .tls1_0, .rsa, .rsa, "Camellia(128)", "SHA1"
        ),
        .init(
            0x0044, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA", "DHE-DSS-CAMELLIA128-SHA", .tls1_0, .dhe, .dss,
            "Camellia(128)", "SHA1"),
        .init(
            0x0045, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA", "DHE-RSA-CAMELLIA128-SHA", .tls1_0, .dhe, .rsa,
            "Camellia(128)", "SHA1"),
        .init(
            0x0046, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA", "ADH-CAMELLIA128-SHA", .tls1_0, .dhe, .anonymous,
            "Camellia(128)", "SHA1"),
        .init(
            0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", "DHE-RSA-AES128-SHA256", .tls1_2, .dhe, .rsa, "AES(128)",
            "SHA256"),
        .init(
            0x006A, "TLS_DHE_DSS_WITH_AES_256_CBC_SHA256", "DHE-DSS-AES256-SHA256", .tls1_2, .dhe, .dss, "AES(256)",
            "SHA256"),
        .init(
            0x006B, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", "DHE-RSA-AES256-SHA256", .tls1_2, .dhe, .rsa, "AES(256)",
            "SHA256"),
        .init(
            0x006C, "TLS_DH_anon_WITH_AES_128_CBC_SHA256", "ADH-AES128-SHA256", .tls1_2, .dhe, .anonymous, "AES(128)",
            "SHA256"),
        .init(
            0x006D, "TLS_DH_anon_WITH_AES_256_CBC_SHA256", "ADH-AES256-SHA256", .tls1_2, .dhe, .anonymous, "AES(256)",
            "SHA256"),
        .init(
            0x0084, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA", "CAMELLIA256-SHA", .tls1_0, .rsa, .rsa, "Camellia(256)", "SHA1"
        ),
        .init(
            0x0087, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA", "DHE-DSS-CAMELLIA256-SHA", .tls1_0, .dhe, .dss,
            "Camellia(256)", "SHA1"),
        .init(
            0x0088, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA", "DHE-RSA-CAMELLIA256-SHA", .tls1_0, .dhe, .rsa,
            "Camellia(256)", "SHA1"),
        .init(
            0x0089, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA", "ADH-CAMELLIA256-SHA", .tls1_0, .dhe, .anonymous,
            "Camellia(256)", "SHA1"),
        .init(0x008C, "TLS_PSK_WITH_AES_128_CBC_SHA", "PSK-AES128-CBC-SHA", .tls1_0, .psk, .psk, "AES(128)", "SHA1"),
        .init(0x008D, "TLS_PSK_WITH_AES_256_CBC_SHA", "PSK-AES256-CBC-SHA", .tls1_0, .psk, .psk, "AES(256)", "SHA1"),
        .init(
            0x0090, "TLS_DHE_PSK_WITH_AES_128_CBC_SHA", "DHE-PSK-AES128-CBC-SHA", .tls1_0, .dhePSK, .psk, "AES(128)",
            "SHA1"),
        .init(
            0x0091, "TLS_DHE_PSK_WITH_AES_256_CBC_SHA", "DHE-PSK-AES256-CBC-SHA", .tls1_0, .dhePSK, .psk, "AES(256)",
            "SHA1"),
        .init(
            0x0094, "TLS_RSA_PSK_WITH_AES_128_CBC_SHA", "RSA-PSK-AES128-CBC-SHA", .tls1_0, .rsaPSK, .rsa, "AES(128)",
            "SHA1"),
        .init(
            0x0095, "TLS_RSA_PSK_WITH_AES_256_CBC_SHA", "RSA-PSK-AES256-CBC-SHA", .tls1_0, .rsaPSK, .rsa, "AES(256)",
            "SHA1"),
        .init(
            0x009C, "TLS_RSA_WITH_AES_128_GCM_SHA256", "AES128-GCM-SHA256", .tls1_2, .rsa, .rsa, "AESGCM(128)", "AEAD"),
        .init(
            0x009D, "TLS_RSA_WITH_AES_256_GCM_SHA384", "AES256-GCM-SHA384", .tls1_2, .rsa, .rsa, "AESGCM(256)", "AEAD"),
        .init(
            0x009E, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", "DHE-RSA-AES128-GCM-SHA256", .tls1_2, .dhe, .rsa,
            "AESGCM(128)", "AEAD"),
        .init(
            0x009F, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", "DHE-RSA-AES256-GCM-SHA384", .tls1_2, .dhe, .rsa,
            "AESGCM(256)", "AEAD"),
        .init(
            0x00A2, "TLS_DHE_DSS_WITH_AES_128_GCM_SHA256", "DHE-DSS-AES128-GCM-SHA256", .tls1_2, .dhe, .dss,
            "AESGCM(128)", "AEAD"),
        .init(
            0x00A3, "TLS_DHE_DSS_WITH_AES_256_GCM_SHA384", "DHE-DSS-AES256-GCM-SHA384", .tls1_2, .dhe, .dss,
            "AESGCM(256)", "AEAD"),
        .init(
            0x00A6, "TLS_DH_anon_WITH_AES_128_GCM_SHA256", "ADH-AES128-GCM-SHA256", .tls1_2, .dhe, .anonymous,
            "AESGCM(128)", "AEAD"),
        .init(
            0x00A7, "TLS_DH_anon_WITH_AES_256_GCM_SHA384", "ADH-AES256-GCM-SHA384", .tls1_2, .dhe, .anonymous,
            "AESGCM(256)", "AEAD"),
        .init(
            0x00A8, "TLS_PSK_WITH_AES_128_GCM_SHA256", "PSK-AES128-GCM-SHA256", .tls1_2, .psk, .psk, "AESGCM(128)",
            "AEAD"),
        .init(
            0x00A9, "TLS_PSK_WITH_AES_256_GCM_SHA384", "PSK-AES256-GCM-SHA384", .tls1_2, .psk, .psk, "AESGCM(256)",
            "AEAD"),
        .init(
            0x00AA, "TLS_DHE_PSK_WITH_AES_128_GCM_SHA256", "DHE-PSK-AES128-GCM-SHA256", .tls1_2, .dhePSK, .psk,
            "AESGCM(128)", "AEAD"),
        .init(
            0x00AB, "TLS_DHE_PSK_WITH_AES_256_GCM_SHA384", "DHE-PSK-AES256-GCM-SHA384", .tls1_2, .dhePSK, .psk,
            "AESGCM(256)", "AEAD"),
        .init(
            0x00AC, "TLS_RSA_PSK_WITH_AES_128_GCM_SHA256", "RSA-PSK-AES128-GCM-SHA256", .tls1_2, .rsaPSK, .rsa,
            "AESGCM(128)", "AEAD"),
        .init(
            0x00AD, "TLS_RSA_PSK_WITH_AES_256_GCM_SHA384", "RSA-PSK-AES256-GCM-SHA384", .tls1_2, .rsaPSK, .rsa,
            "AESGCM(256)", "AEAD"),
        .init(
            0x00AE, "TLS_PSK_WITH_AES_128_CBC_SHA256", "PSK-AES128-CBC-SHA256", .tls1_0, .psk, .psk, "AES(128)",
            "SHA256"),
        .init(
            0x00AF, "TLS_PSK_WITH_AES_256_CBC_SHA384", "PSK-AES256-CBC-SHA384", .tls1_0, .psk, .psk, "AES(256)",
            "SHA384"),
        .init(0x00B0, "TLS_PSK_WITH_NULL_SHA256", "PSK-NULL-SHA256", .tls1_0, .psk, .psk, "None", "SHA256"),
        .init(0x00B1, "TLS_PSK_WITH_NULL_SHA384", "PSK-NULL-SHA384", .tls1_0, .psk, .psk, "None", "SHA384"),
        .init(
            0x00B2, "TLS_DHE_PSK_WITH_AES_128_CBC_SHA256", "DHE-PSK-AES128-CBC-SHA256", .tls1_0, .dhePSK, .psk,
            "AES(128)", "SHA256"),
        .init(
            0x00B3, "TLS_DHE_PSK_WITH_AES_256_CBC_SHA384", "DHE-PSK-AES256-CBC-SHA384", .tls1_0, .dhePSK, .psk,
            "AES(256)", "SHA384"),
        .init(0x00B4, "TLS_DHE_PSK_WITH_NULL_SHA256", "DHE-PSK-NULL-SHA256", .tls1_0, .dhePSK, .psk, "None", "SHA256"),
        .init(0x00B5, "TLS_DHE_PSK_WITH_NULL_SHA384", "DHE-PSK-NULL-SHA384", .tls1_0, .dhePSK, .psk, "None", "SHA384"),
        .init(
            0x00B6, "TLS_RSA_PSK_WITH_AES_128_CBC_SHA256", "RSA-PSK-AES128-CBC-SHA256", .tls1_0, .rsaPSK, .rsa,
            "AES(128)", "SHA256"),
        .init(
            0x00B7, "TLS_RSA_PSK_WITH_AES_256_CBC_SHA384", "RSA-PSK-AES256-CBC-SHA384", .tls1_0, .rsaPSK, .rsa,
            "AES(256)", "SHA384"),
        .init(0x00B8, "TLS_RSA_PSK_WITH_NULL_SHA256", "RSA-PSK-NULL-SHA256", .tls1_0, .rsaPSK, .rsa, "None", "SHA256"),
        .init(0x00B9, "TLS_RSA_PSK_WITH_NULL_SHA384", "RSA-PSK-NULL-SHA384", .tls1_0, .rsaPSK, .rsa, "None", "SHA384"),
        .init(
            0x00BA, "TLS_RSA_WITH_CAMELLIA_128_CBC_SHA256", "CAMELLIA128-SHA256", .tls1_2, .rsa, .rsa, "Camellia(128)",
            "SHA256"),
        .init(
            0x00BD, "TLS_DHE_DSS_WITH_CAMELLIA_128_CBC_SHA256", "DHE-DSS-CAMELLIA128-SHA256", .tls1_2, .dhe, .dss,
            "Camellia(128)", "SHA256"),
        .init(
            0x00BE, "TLS_DHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", "DHE-RSA-CAMELLIA128-SHA256", .tls1_2, .dhe, .rsa,
            "Camellia(128)", "SHA256"),
        .init(
            0x00BF, "TLS_DH_anon_WITH_CAMELLIA_128_CBC_SHA256", "ADH-CAMELLIA128-SHA256", .tls1_2, .dhe, .anonymous,
            "Camellia(128)", "SHA256"),
        .init(
            0x00C0, "TLS_RSA_WITH_CAMELLIA_256_CBC_SHA256", "CAMELLIA256-SHA256", .tls1_2, .rsa, .rsa, "Camellia(256)",
            "SHA256"),
        .init(
            0x00C3, "TLS_DHE_DSS_WITH_CAMELLIA_256_CBC_SHA256", "DHE-DSS-CAMELLIA256-SHA256", .tls1_2, .dhe, .dss,
            "Camellia(256)", "SHA256"),
        .init(
            0x00C4, "TLS_DHE_RSA_WITH_CAMELLIA_256_CBC_SHA256", "DHE-RSA-CAMELLIA256-SHA256", .tls1_2, .dhe, .rsa,
            "Camellia(256)", "SHA256"),
        .init(
            0x00C5, "TLS_DH_anon_WITH_CAMELLIA_256_CBC_SHA256", "ADH-CAMELLIA256-SHA256", .tls1_2, .dhe, .anonymous,
            "Camellia(256)", "SHA256"),
        .init(
            0x00FF, "TLS_EMPTY_RENEGOTIATION_INFO_SCSV", "TLS_EMPTY_RENEGOTIATION_INFO_SCSV", .tls1_0, .none, .none,
            "None", "None"),
        .init(0x1301, "TLS_AES_128_GCM_SHA256", "TLS_AES_128_GCM_SHA256", .tls1_3, .tls13, .any, "AESGCM(128)", "AEAD"),
        .init(0x1302, "TLS_AES_256_GCM_SHA384", "TLS_AES_256_GCM_SHA384", .tls1_3, .tls13, .any, "AESGCM(256)", "AEAD"),
        .init(
            0x1303, "TLS_CHACHA20_POLY1305_SHA256", "TLS_CHACHA20_POLY1305_SHA256", .tls1_3, .tls13, .any,
            "CHACHA20/POLY1305(256)", "AEAD"),
        .init(0x1304, "TLS_AES_128_CCM_SHA256", "TLS_AES_128_CCM_SHA256", .tls1_3, .tls13, .any, "AESCCM(128)", "AEAD"),
        .init(
            0x1305, "TLS_AES_128_CCM_8_SHA256", "TLS_AES_128_CCM_8_SHA256", .tls1_3, .tls13, .any, "AESCCM8(128)",
            "AEAD"),
        .init(0x5600, "TLS_FALLBACK_SCSV", "TLS_FALLBACK_SCSV", .tls1_0, .none, .none, "None", "None"),
        .init(0xC006, "TLS_ECDHE_ECDSA_WITH_NULL_SHA", "ECDHE-ECDSA-NULL-SHA", .tls1_0, .ecdhe, .ecdsa, "None", "SHA1"),
        .init(
            0xC007, "TLS_ECDHE_ECDSA_WITH_RC4_128_SHA", "ECDHE-ECDSA-RC4-SHA", .tls1_0, .ecdhe, .ecdsa, "RC4(128)",
            "SHA1"),
        .init(
            0xC008, "TLS_ECDHE_ECDSA_WITH_3DES_EDE_CBC_SHA", "ECDHE-ECDSA-DES-CBC3-SHA", .tls1_0, .ecdhe, .ecdsa,
            "3DES(168)", "SHA1"),
        .init(
            0xC009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", "ECDHE-ECDSA-AES128-SHA", .tls1_0, .ecdhe, .ecdsa,
            "AES(128)", "SHA1"),
        .init(
            0xC00A, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", "ECDHE-ECDSA-AES256-SHA", .tls1_0, .ecdhe, .ecdsa,
            "AES(256)", "SHA1"),
        .init(0xC010, "TLS_ECDHE_RSA_WITH_NULL_SHA", "ECDHE-RSA-NULL-SHA", .tls1_0, .ecdhe, .rsa, "None", "SHA1"),
        .init(0xC011, "TLS_ECDHE_RSA_WITH_RC4_128_SHA", "ECDHE-RSA-RC4-SHA", .tls1_0, .ecdhe, .rsa, "RC4(128)", "SHA1"),
        .init(
            0xC012, "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA", "ECDHE-RSA-DES-CBC3-SHA", .tls1_0, .ecdhe, .rsa, "3DES(168)",
            "SHA1"),
        .init(
            0xC013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", "ECDHE-RSA-AES128-SHA", .tls1_0, .ecdhe, .rsa, "AES(128)",
            "SHA1"),
        .init(
            0xC014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", "ECDHE-RSA-AES256-SHA", .tls1_0, .ecdhe, .rsa, "AES(256)",
            "SHA1"),
        .init(0xC015, "TLS_ECDH_anon_WITH_NULL_SHA", "AECDH-NULL-SHA", .tls1_0, .ecdhe, .anonymous, "None", "SHA1"),
        .init(
            0xC018, "TLS_ECDH_anon_WITH_AES_128_CBC_SHA", "AECDH-AES128-SHA", .tls1_0, .ecdhe, .anonymous, "AES(128)",
            "SHA1"),
        .init(
            0xC019, "TLS_ECDH_anon_WITH_AES_256_CBC_SHA", "AECDH-AES256-SHA", .tls1_0, .ecdhe, .anonymous, "AES(256)",
            "SHA1"),
        .init(
            0xC01D, "TLS_SRP_SHA_WITH_AES_128_CBC_SHA", "SRP-AES-128-CBC-SHA", .tls1_0, .srp, .srp, "AES(128)", "SHA1"),
        .init(
            0xC01E, "TLS_SRP_SHA_RSA_WITH_AES_128_CBC_SHA", "SRP-RSA-AES-128-CBC-SHA", .tls1_0, .srp, .rsa, "AES(128)",
            "SHA1"),
        .init(
            0xC01F, "TLS_SRP_SHA_DSS_WITH_AES_128_CBC_SHA", "SRP-DSS-AES-128-CBC-SHA", .tls1_0, .srp, .dss, "AES(128)",
            "SHA1"),
        .init(
            0xC020, "TLS_SRP_SHA_WITH_AES_256_CBC_SHA", "SRP-AES-256-CBC-SHA", .tls1_0, .srp, .srp, "AES(256)", "SHA1"),
        .init(
            0xC021, "TLS_SRP_SHA_RSA_WITH_AES_256_CBC_SHA", "SRP-RSA-AES-256-CBC-SHA", .tls1_0, .srp, .rsa, "AES(256)",
            "SHA1"),
        .init(
            0xC022, "TLS_SRP_SHA_DSS_WITH_AES_256_CBC_SHA", "SRP-DSS-AES-256-CBC-SHA", .tls1_0, .srp, .dss, "AES(256)",
            "SHA1"),
        .init(
            0xC023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", "ECDHE-ECDSA-AES128-SHA256", .tls1_2, .ecdhe, .ecdsa,
            "AES(128)", "SHA256"),
        .init(
            0xC024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", "ECDHE-ECDSA-AES256-SHA384", .tls1_2, .ecdhe, .ecdsa,
            "AES(256)", "SHA384"),
        .init(
            0xC027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", "ECDHE-RSA-AES128-SHA256", .tls1_2, .ecdhe, .rsa,
            "AES(128)", "SHA256"),
        .init(
            0xC028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", "ECDHE-RSA-AES256-SHA384", .tls1_2, .ecdhe, .rsa,
            "AES(256)", "SHA384"),
        .init(
            0xC02B, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", "ECDHE-ECDSA-AES128-GCM-SHA256", .tls1_2, .ecdhe, .ecdsa,
            "AESGCM(128)", "AEAD"),
        .init(
            0xC02C, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", "ECDHE-ECDSA-AES256-GCM-SHA384", .tls1_2, .ecdhe, .ecdsa,
            "AESGCM(256)", "AEAD"),
        .init(
            0xC02F, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", "ECDHE-RSA-AES128-GCM-SHA256", .tls1_2, .ecdhe, .rsa,
            "AESGCM(128)", "AEAD"),
        .init(
            0xC030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", "ECDHE-RSA-AES256-GCM-SHA384", .tls1_2, .ecdhe, .rsa,
            "AESGCM(256)", "AEAD"),
        .init(
            0xC035, "TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA", "ECDHE-PSK-AES128-CBC-SHA", .tls1_0, .ecdhePSK, .psk,
            "AES(128)", "SHA1"),
        .init(
            0xC036, "TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA", "ECDHE-PSK-AES256-CBC-SHA", .tls1_0, .ecdhePSK, .psk,
            "AES(256)", "SHA1"),
        .init(
            0xC037, "TLS_ECDHE_PSK_WITH_AES_128_CBC_SHA256", "ECDHE-PSK-AES128-CBC-SHA256", .tls1_0, .ecdhePSK, .psk,
            "AES(128)", "SHA256"),
        .init(
            0xC038, "TLS_ECDHE_PSK_WITH_AES_256_CBC_SHA384", "ECDHE-PSK-AES256-CBC-SHA384", .tls1_0, .ecdhePSK, .psk,
            "AES(256)", "SHA384"),
        .init(0xC039, "TLS_ECDHE_PSK_WITH_NULL_SHA", "ECDHE-PSK-NULL-SHA", .tls1_0, .ecdhePSK, .psk, "None", "SHA1"),
        .init(
            0xC03A, "TLS_ECDHE_PSK_WITH_NULL_SHA256", "ECDHE-PSK-NULL-SHA256", .tls1_0, .ecdhePSK, .psk, "None",
            "SHA256"),
        .init(
            0xC03B, "TLS_ECDHE_PSK_WITH_NULL_SHA384", "ECDHE-PSK-NULL-SHA384", .tls1_0, .ecdhePSK, .psk, "None",
            "SHA384"),
        .init(
            0xC050, "TLS_RSA_WITH_ARIA_128_GCM_SHA256", "ARIA128-GCM-SHA256", .tls1_2, .rsa, .rsa, "ARIAGCM(128)",
            "AEAD"),
        .init(
            0xC051, "TLS_RSA_WITH_ARIA_256_GCM_SHA384", "ARIA256-GCM-SHA384", .tls1_2, .rsa, .rsa, "ARIAGCM(256)",
            "AEAD"),
        .init(
            0xC052, "TLS_DHE_RSA_WITH_ARIA_128_GCM_SHA256", "DHE-RSA-ARIA128-GCM-SHA256", .tls1_2, .dhe, .rsa,
            "ARIAGCM(128)", "AEAD"),
        .init(
            0xC053, "TLS_DHE_RSA_WITH_ARIA_256_GCM_SHA384", "DHE-RSA-ARIA256-GCM-SHA384", .tls1_2, .dhe, .rsa,
            "ARIAGCM(256)", "AEAD"),
        .init(
            0xC056, "TLS_DHE_DSS_WITH_ARIA_128_GCM_SHA256", "DHE-DSS-ARIA128-GCM-SHA256", .tls1_2, .dhe, .dss,
            "ARIAGCM(128)", "AEAD"),
        .init(
            0xC057, "TLS_DHE_DSS_WITH_ARIA_256_GCM_SHA384", "DHE-DSS-ARIA256-GCM-SHA384", .tls1_2, .dhe, .dss,
            "ARIAGCM(256)", "AEAD"),
        .init(
            0xC05C, "TLS_ECDHE_ECDSA_WITH_ARIA_128_GCM_SHA256", "ECDHE-ECDSA-ARIA128-GCM-SHA256", .tls1_2, .ecdhe,
            .ecdsa, "ARIAGCM(128)", "AEAD"),
        .init(
            0xC05D, "TLS_ECDHE_ECDSA_WITH_ARIA_256_GCM_SHA384", "ECDHE-ECDSA-ARIA256-GCM-SHA384", .tls1_2, .ecdhe,
            .ecdsa, "ARIAGCM(256)", "AEAD"),
        .init(
            0xC060, "TLS_ECDHE_RSA_WITH_ARIA_128_GCM_SHA256", "ECDHE-ARIA128-GCM-SHA256", .tls1_2, .ecdhe, .rsa,
            "ARIAGCM(128)", "AEAD"),
        .init(
            0xC061, "TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384", "ECDHE-ARIA256-GCM-SHA384", .tls1_2, .ecdhe, .rsa,
            "ARIAGCM(256)", "AEAD"),
        .init(
            0xC06A, "TLS_PSK_WITH_ARIA_128_GCM_SHA256", "PSK-ARIA128-GCM-SHA256", .tls1_2, .psk, .psk, "ARIAGCM(128)",
            "AEAD"),
        .init(
            0xC06B, "TLS_PSK_WITH_ARIA_256_GCM_SHA384", "PSK-ARIA256-GCM-SHA384", .tls1_2, .psk, .psk, "ARIAGCM(256)",
            "AEAD"),
        .init(
            0xC06C, "TLS_DHE_PSK_WITH_ARIA_128_GCM_SHA256", "DHE-PSK-ARIA128-GCM-SHA256", .tls1_2, .dhePSK, .psk,
            "ARIAGCM(128)", "AEAD"),
        .init(
            0xC06D, "TLS_DHE_PSK_WITH_ARIA_256_GCM_SHA384", "DHE-PSK-ARIA256-GCM-SHA384", .tls1_2, .dhePSK, .psk,
            "ARIAGCM(256)", "AEAD"),
        .init(
            0xC06E, "TLS_RSA_PSK_WITH_ARIA_128_GCM_SHA256", "RSA-PSK-ARIA128-GCM-SHA256", .tls1_2, .rsaPSK, .rsa,
            "ARIAGCM(128)", "AEAD"),
        .init(
            0xC06F, "TLS_RSA_PSK_WITH_ARIA_256_GCM_SHA384", "RSA-PSK-ARIA256-GCM-SHA384", .tls1_2, .rsaPSK, .rsa,
            "ARIAGCM(256)", "AEAD"),
        .init(
            0xC072, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_128_CBC_SHA256", "ECDHE-ECDSA-CAMELLIA128-SHA256", .tls1_2, .ecdhe,
            .ecdsa, "Camellia(128)", "SHA256"),
        .init(
            0xC073, "TLS_ECDHE_ECDSA_WITH_CAMELLIA_256_CBC_SHA384", "ECDHE-ECDSA-CAMELLIA256-SHA384", .tls1_2, .ecdhe,
            .ecdsa, "Camellia(256)", "SHA384"),
        .init(
            0xC076, "TLS_ECDHE_RSA_WITH_CAMELLIA_128_CBC_SHA256", "ECDHE-RSA-CAMELLIA128-SHA256", .tls1_2, .ecdhe, .rsa,
            "Camellia(128)", "SHA256"),
        .init(
            0xC077, "TLS_ECDHE_RSA_WITH_CAMELLIA_256_CBC_SHA384", "ECDHE-RSA-CAMELLIA256-SHA384", .tls1_2, .ecdhe, .rsa,
            "Camellia(256)", "SHA384"),
        .init(
            0xC094, "TLS_PSK_WITH_CAMELLIA_128_CBC_SHA256", "PSK-CAMELLIA128-SHA256", .tls1_0, .psk, .psk,
            "Camellia(128)", "SHA256"),
        .init(
            0xC095, "TLS_PSK_WITH_CAMELLIA_256_CBC_SHA384", "PSK-CAMELLIA256-SHA384", .tls1_0, .psk, .psk,
            "Camellia(256)", "SHA384"),
        .init(
            0xC096, "TLS_DHE_PSK_WITH_CAMELLIA_128_CBC_SHA256", "DHE-PSK-CAMELLIA128-SHA256", .tls1_0, .dhePSK, .psk,
            "Camellia(128)", "SHA256"),
        .init(
            0xC097, "TLS_DHE_PSK_WITH_CAMELLIA_256_CBC_SHA384", "DHE-PSK-CAMELLIA256-SHA384", .tls1_0, .dhePSK, .psk,
            "Camellia(256)", "SHA384"),
        .init(
            0xC098, "TLS_RSA_PSK_WITH_CAMELLIA_128_CBC_SHA256", "RSA-PSK-CAMELLIA128-SHA256", .tls1_0, .rsaPSK, .rsa,
            "Camellia(128)", "SHA256"),
        .init(
            0xC099, "TLS_RSA_PSK_WITH_CAMELLIA_256_CBC_SHA384", "RSA-PSK-CAMELLIA256-SHA384", .tls1_0, .rsaPSK, .rsa,
            "Camellia(256)", "SHA384"),
        .init(
            0xC09A, "TLS_ECDHE_PSK_WITH_CAMELLIA_128_CBC_SHA256", "ECDHE-PSK-CAMELLIA128-SHA256", .tls1_0, .ecdhePSK,
            .psk, "Camellia(128)", "SHA256"),
        .init(
            0xC09B, "TLS_ECDHE_PSK_WITH_CAMELLIA_256_CBC_SHA384", "ECDHE-PSK-CAMELLIA256-SHA384", .tls1_0, .ecdhePSK,
            .psk, "Camellia(256)", "SHA384"),
        .init(0xC09C, "TLS_RSA_WITH_AES_128_CCM", "AES128-CCM", .tls1_2, .rsa, .rsa, "AESCCM(128)", "AEAD"),
        .init(0xC09D, "TLS_RSA_WITH_AES_256_CCM", "AES256-CCM", .tls1_2, .rsa, .rsa, "AESCCM(256)", "AEAD"),
        .init(0xC09E, "TLS_DHE_RSA_WITH_AES_128_CCM", "DHE-RSA-AES128-CCM", .tls1_2, .dhe, .rsa, "AESCCM(128)", "AEAD"),
        .init(0xC09F, "TLS_DHE_RSA_WITH_AES_256_CCM", "DHE-RSA-AES256-CCM", .tls1_2, .dhe, .rsa, "AESCCM(256)", "AEAD"),
        .init(0xC0A0, "TLS_RSA_WITH_AES_128_CCM_8", "AES128-CCM8", .tls1_2, .rsa, .rsa, "AESCCM8(128)", "AEAD"),
        .init(0xC0A1, "TLS_RSA_WITH_AES_256_CCM_8", "AES256-CCM8", .tls1_2, .rsa, .rsa, "AESCCM8(256)", "AEAD"),
        .init(
            0xC0A2, "TLS_DHE_RSA_WITH_AES_128_CCM_8", "DHE-RSA-AES128-CCM8", .tls1_2, .dhe, .rsa, "AESCCM8(128)", "AEAD"
        ),
        .init(
            0xC0A3, "TLS_DHE_RSA_WITH_AES_256_CCM_8", "DHE-RSA-AES256-CCM8", .tls1_2, .dhe, .rsa, "AESCCM8(256)", "AEAD"
        ),
        .init(0xC0A4, "TLS_PSK_WITH_AES_128_CCM", "PSK-AES128-CCM", .tls1_2, .psk, .psk, "AESCCM(128)", "AEAD"),
        .init(0xC0A5, "TLS_PSK_WITH_AES_256_CCM", "PSK-AES256-CCM", .tls1_2, .psk, .psk, "AESCCM(256)", "AEAD"),
        .init(
            0xC0A6, "TLS_DHE_PSK_WITH_AES_128_CCM", "DHE-PSK-AES128-CCM", .tls1_2, .dhePSK, .psk, "AESCCM(128)", "AEAD"),
        .init(
            0xC0A7, "TLS_DHE_PSK_WITH_AES_256_CCM", "DHE-PSK-AES256-CCM", .tls1_2, .dhePSK, .psk, "AESCCM(256)", "AEAD"),
        .init(0xC0A8, "TLS_PSK_WITH_AES_128_CCM_8", "PSK-AES128-CCM8", .tls1_2, .psk, .psk, "AESCCM8(128)", "AEAD"),
        .init(0xC0A9, "TLS_PSK_WITH_AES_256_CCM_8", "PSK-AES256-CCM8", .tls1_2, .psk, .psk, "AESCCM8(256)", "AEAD"),
        .init(
            0xC0AA, "TLS_PSK_DHE_WITH_AES_128_CCM_8", "DHE-PSK-AES128-CCM8", .tls1_2, .dhePSK, .psk, "AESCCM8(128)",
            "AEAD"),
        .init(
            0xC0AB, "TLS_PSK_DHE_WITH_AES_256_CCM_8", "DHE-PSK-AES256-CCM8", .tls1_2, .dhePSK, .psk, "AESCCM8(256)",
            "AEAD"),
        .init(
            0xC0AC, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM", "ECDHE-ECDSA-AES128-CCM", .tls1_2, .ecdhe, .ecdsa,
            "AESCCM(128)", "AEAD"),
        .init(
            0xC0AD, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM", "ECDHE-ECDSA-AES256-CCM", .tls1_2, .ecdhe, .ecdsa,
            "AESCCM(256)", "AEAD"),
        .init(
            0xC0AE, "TLS_ECDHE_ECDSA_WITH_AES_128_CCM_8", "ECDHE-ECDSA-AES128-CCM8", .tls1_2, .ecdhe, .ecdsa,
            "AESCCM8(128)", "AEAD"),
        .init(
            0xC0AF, "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8", "ECDHE-ECDSA-AES256-CCM8", .tls1_2, .ecdhe, .ecdsa,
            "AESCCM8(256)", "AEAD"),
        .init(
            0xCCA8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-RSA-CHACHA20-POLY1305", .tls1_2, .ecdhe, .rsa,
            "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCA9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-ECDSA-CHACHA20-POLY1305", .tls1_2, .ecdhe,
            .ecdsa, "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCAA, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", "DHE-RSA-CHACHA20-POLY1305", .tls1_2, .dhe, .rsa,
            "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCAB, "TLS_PSK_WITH_CHACHA20_POLY1305_SHA256", "PSK-CHACHA20-POLY1305", .tls1_2, .psk, .psk,
            "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCAC, "TLS_ECDHE_PSK_WITH_CHACHA20_POLY1305_SHA256", "ECDHE-PSK-CHACHA20-POLY1305", .tls1_2, .ecdhePSK,
            .psk, "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCAD, "TLS_DHE_PSK_WITH_CHACHA20_POLY1305_SHA256", "DHE-PSK-CHACHA20-POLY1305", .tls1_2, .dhePSK, .psk,
            "CHACHA20/POLY1305(256)", "AEAD"),
        .init(
            0xCCAE, "TLS_RSA_PSK_WITH_CHACHA20_POLY1305_SHA256", "RSA-PSK-CHACHA20-POLY1305", .tls1_2, .rsaPSK, .rsa,
            "CHACHA20/POLY1305(256)", "AEAD"),
    ]
}
