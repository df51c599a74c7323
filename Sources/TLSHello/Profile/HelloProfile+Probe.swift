extension HelloProfile {
    /// Signature schemes broad enough for any server (RFC 8446 §4.2.3, RFC 5246 §7.4.1.4.1): ECDSA, RSA-PSS, EdDSA,
    /// PKCS#1 with SHA-2, then SHA-1 and SHA-224, which old servers (and TLS 1.0/1.1 certificates) still need.
    package static let broadSignatureAlgorithms: [UInt16] = [
        0x0403, 0x0503, 0x0603, 0x0807, 0x0808, 0x0804, 0x0805, 0x0806, 0x0809, 0x080A, 0x080B,
        0x0401, 0x0501, 0x0601, 0x0303, 0x0301, 0x0302, 0x0402, 0x0502, 0x0602, 0x0203, 0x0201, 0x0202,
    ]

    /// The enumerator's hello: exactly `suites` for one `version`, with `groups` and everything a server of that
    /// version may need to answer (SNI when the builder has a name, ec_point_formats, status_request, EMS,
    /// renegotiation_info, broad signature algorithms, padding against the F5 256–511-byte hang).
    ///
    /// TLS 1.0–1.2 send no supported_versions (legacy_version is `version`); TLS 1.3 sends supported_versions
    /// `[0x0304]` alone, a 32-byte session id (middlebox compatibility) and key shares for the first `keyShares`
    /// groups that the engine can make a share for, so a server that accepts one answers without a
    /// HelloRetryRequest.
    /// - Parameters:
    ///   - version: 0x0301, 0x0302, 0x0303 or 0x0304.
    ///   - suites: offered in this order, nothing added (no SCSV: add 0x00FF yourself if wanted).
    ///   - groups: supported_groups in this order (may be empty for a TLS ≤ 1.2 hello without ECC).
    ///   - keyShares: how many key shares to send in TLS 1.3.
    package static func probe(version: UInt16, suites: [UInt16], groups: [UInt16], keyShares: Int = 1) -> HelloProfile {
        let isTLS13 = version >= 0x0304
        var extensions: [HelloExtension] = [.serverName]
        if !groups.isEmpty { extensions += [.supportedGroups(groups), .ecPointFormats] }
        if version >= 0x0303 { extensions.append(.signatureAlgorithms(broadSignatureAlgorithms)) }
        extensions += [.statusRequest, .extendedMasterSecret, .renegotiationInfo]
        if isTLS13 {
            let shared = groups.filter { KeyShareSecret.supportedGroups.contains($0) }.prefix(max(0, keyShares))
            extensions += [.supportedVersions([0x0304]), .keyShare(Array(shared)), .pskKeyExchangeModes]
        }
        extensions.append(.padding(toRecordLength: 512))
        let name = "probe-" + String(version, radix: 16)
        return HelloProfile(
            name: name, source: "atscheck's enumeration hello", recordVersion: 0x0301,
            legacyVersion: isTLS13 ? 0x0303 : version, sessionIDLength: isTLS13 ? 32 : 0, cipherSuites: suites,
            extensions: extensions)
    }
}
