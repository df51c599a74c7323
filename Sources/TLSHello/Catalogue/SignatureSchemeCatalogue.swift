/// Signature schemes by codepoint, with their IANA names (RFC 8446 §4.2.3; the TLS SignatureScheme registry). TLS
/// 1.2's SignatureAndHashAlgorithm pairs (RFC 5246 §7.4.1.4.1) share the codepoints: hash in the high byte,
/// signature in the low one, so `0x0401` is rsa_pkcs1_sha256 in both.
package enum SignatureSchemeCatalogue {
    /// The IANA name of `scheme` (`rsa_pss_rsae_sha256`), or its hex code (`0x0a0a`) for one the table lacks.
    package static func name(_ scheme: UInt16) -> String {
        if let name = names[scheme] { return name }
        let hex = String(scheme, radix: 16)
        return "0x" + String(repeating: "0", count: 4 - hex.count) + hex
    }

    private static let names: [UInt16: String] = [
        0x0201: "rsa_pkcs1_sha1", 0x0203: "ecdsa_sha1", 0x0202: "dsa_sha1",
        0x0301: "rsa_pkcs1_sha224", 0x0303: "ecdsa_sha224", 0x0302: "dsa_sha224",
        0x0401: "rsa_pkcs1_sha256", 0x0403: "ecdsa_secp256r1_sha256", 0x0402: "dsa_sha256",
        0x0501: "rsa_pkcs1_sha384", 0x0503: "ecdsa_secp384r1_sha384", 0x0502: "dsa_sha384",
        0x0601: "rsa_pkcs1_sha512", 0x0603: "ecdsa_secp521r1_sha512", 0x0602: "dsa_sha512",
        0x0804: "rsa_pss_rsae_sha256", 0x0805: "rsa_pss_rsae_sha384", 0x0806: "rsa_pss_rsae_sha512",
        0x0807: "ed25519", 0x0808: "ed448",
        0x0809: "rsa_pss_pss_sha256", 0x080A: "rsa_pss_pss_sha384", 0x080B: "rsa_pss_pss_sha512",
        0x081A: "ecdsa_brainpoolP256r1tls13_sha256", 0x081B: "ecdsa_brainpoolP384r1tls13_sha384",
        0x081C: "ecdsa_brainpoolP512r1tls13_sha512",
        0x0904: "mldsa44", 0x0905: "mldsa65", 0x0906: "mldsa87",
    ]
}
