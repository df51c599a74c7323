// The key-exchange group registry.
//
// Source: the IANA "TLS Supported Groups" registry (https://www.iana.org/assignments/tls-parameters) for
// the codes and names; the ML-KEM hybrids from draft-ietf-tls-ecdhe-mlkem (X25519MLKEM768 0x11EC,
// SecP256r1MLKEM768 0x11EB, SecP384r1MLKEM1024 0x11ED), ML-KEM alone from draft-connolly-tls-mlkem-key-agreement
// (MLKEM512/768/1024, 0x0200–0x0202), and the obsolete Kyber draft hybrid X25519Kyber768Draft00 0x6399 from
// draft-tls-westerbaan-xyber768d00. Only the groups a client of today offers or a server may still pick are listed
// (the RFC 8422 curves below P-256 and the binary curves are left out: no Apple client, nor OpenSSL 3, offers them).
//
// Classical strength: RFC 7748 §1 for X25519 (~128 bits) and X448 (~224); NIST SP 800-57 Part 1 Rev. 5, Table 2, for
// the 256/384/521-bit prime curves (128/192/256) and the brainpool curves of the same sizes; RFC 7919 Appendix A for
// the ffdhe groups (103, 125, 150, 175 and 192 bits). A hybrid's is its classical curve's.

extension NamedGroup {
    static let registryTable: [NamedGroupInfo] = [
        .init(0x0017, "secp256r1", "P-256", .ellipticCurve, classicalBits: 128, minimumVersion: .tls1_0),
        .init(0x0018, "secp384r1", "P-384", .ellipticCurve, classicalBits: 192, minimumVersion: .tls1_0),
        .init(0x0019, "secp521r1", "P-521", .ellipticCurve, classicalBits: 256, minimumVersion: .tls1_0),
        // RFC 7027: the brainpool curves for TLS 1.2 and earlier; RFC 8734 gave TLS 1.3 its own codes (0x001F–0x0021).
        .init(
            0x001A, "brainpoolP256r1", "brainpoolP256r1", .ellipticCurve, classicalBits: 128, minimumVersion: .tls1_0),
        .init(
            0x001B, "brainpoolP384r1", "brainpoolP384r1", .ellipticCurve, classicalBits: 192, minimumVersion: .tls1_0),
        .init(
            0x001C, "brainpoolP512r1", "brainpoolP512r1", .ellipticCurve, classicalBits: 256, minimumVersion: .tls1_0),
        .init(0x001D, "x25519", "X25519", .ellipticCurve, classicalBits: 128, minimumVersion: .tls1_0),
        .init(0x001E, "x448", "X448", .ellipticCurve, classicalBits: 224, minimumVersion: .tls1_0),
        .init(
            0x001F, "brainpoolP256r1tls13", "brainpoolP256r1tls13", .ellipticCurve, classicalBits: 128,
            minimumVersion: .tls1_3),
        .init(
            0x0020, "brainpoolP384r1tls13", "brainpoolP384r1tls13", .ellipticCurve, classicalBits: 192,
            minimumVersion: .tls1_3),
        .init(
            0x0021, "brainpoolP512r1tls13", "brainpoolP512r1tls13", .ellipticCurve, classicalBits: 256,
            minimumVersion: .tls1_3),
        .init(0x0100, "ffdhe2048", "ffdhe2048", .finiteField, classicalBits: 103, minimumVersion: .tls1_0),
        .init(0x0101, "ffdhe3072", "ffdhe3072", .finiteField, classicalBits: 125, minimumVersion: .tls1_0),
        .init(0x0102, "ffdhe4096", "ffdhe4096", .finiteField, classicalBits: 150, minimumVersion: .tls1_0),
        .init(0x0103, "ffdhe6144", "ffdhe6144", .finiteField, classicalBits: 175, minimumVersion: .tls1_0),
        .init(0x0104, "ffdhe8192", "ffdhe8192", .finiteField, classicalBits: 192, minimumVersion: .tls1_0),
        .init(0x0200, "MLKEM512", "ML-KEM-512", .postQuantum, classicalBits: nil, minimumVersion: .tls1_3),
        .init(0x0201, "MLKEM768", "ML-KEM-768", .postQuantum, classicalBits: nil, minimumVersion: .tls1_3),
        .init(0x0202, "MLKEM1024", "ML-KEM-1024", .postQuantum, classicalBits: nil, minimumVersion: .tls1_3),
        .init(
            0x11EB, "SecP256r1MLKEM768", "SecP256r1MLKEM768", .hybrid, classicalBits: 128, minimumVersion: .tls1_3),
        .init(0x11EC, "X25519MLKEM768", "X25519MLKEM768", .hybrid, classicalBits: 128, minimumVersion: .tls1_3),
        .init(
            0x11ED, "SecP384r1MLKEM1024", "SecP384r1MLKEM1024", .hybrid, classicalBits: 192, minimumVersion: .tls1_3),
        .init(
            0x6399, "X25519Kyber768Draft00", "X25519Kyber768Draft00", .hybrid, classicalBits: 128,
            minimumVersion: .tls1_3, obsolete: true),
    ]

    /// Every registry entry, by code.
    public static let registry: [NamedGroup: NamedGroupInfo] = {
        var table: [NamedGroup: NamedGroupInfo] = [:]
        for info in registryTable { table[info.group] = info }
        return table
    }()

    /// Every registry entry, code order.
    public static var known: [NamedGroupInfo] { registryTable.sorted { $0.group < $1.group } }

    /// Entries by lower-cased IANA and display name.
    static let registryByName: [String: NamedGroupInfo] = {
        var table: [String: NamedGroupInfo] = [:]
        for info in registryTable {
            table[info.ianaName.lowercased()] = info
            table[info.displayName.lowercased()] = info
        }
        return table
    }()

    public static let secp256r1 = NamedGroup(0x0017)
    public static let secp384r1 = NamedGroup(0x0018)
    public static let secp521r1 = NamedGroup(0x0019)
    public static let brainpoolP256r1 = NamedGroup(0x001A)
    public static let brainpoolP384r1 = NamedGroup(0x001B)
    public static let brainpoolP512r1 = NamedGroup(0x001C)
    public static let x25519 = NamedGroup(0x001D)
    public static let x448 = NamedGroup(0x001E)
    public static let brainpoolP256r1tls13 = NamedGroup(0x001F)
    public static let brainpoolP384r1tls13 = NamedGroup(0x0020)
    public static let brainpoolP512r1tls13 = NamedGroup(0x0021)
    public static let ffdhe2048 = NamedGroup(0x0100)
    public static let ffdhe3072 = NamedGroup(0x0101)
    public static let ffdhe4096 = NamedGroup(0x0102)
    public static let ffdhe6144 = NamedGroup(0x0103)
    public static let ffdhe8192 = NamedGroup(0x0104)
    public static let MLKEM512 = NamedGroup(0x0200)
    public static let MLKEM768 = NamedGroup(0x0201)
    public static let MLKEM1024 = NamedGroup(0x0202)
    public static let SecP256r1MLKEM768 = NamedGroup(0x11EB)
    public static let X25519MLKEM768 = NamedGroup(0x11EC)
    public static let SecP384r1MLKEM1024 = NamedGroup(0x11ED)
    /// Obsolete: the Kyber draft hybrid Chrome and Cloudflare used before ML-KEM was standardised.
    public static let X25519Kyber768Draft00 = NamedGroup(0x6399)
}
