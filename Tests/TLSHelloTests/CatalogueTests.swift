import Testing

@testable import TLSHello

@Suite("Catalogues")
struct CatalogueTests {
    @Test("codepoints are unique and every suite an Apple profile offers is catalogued")
    func suites() {
        let codes = CipherSuiteCatalogue.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        for profile in HelloProfile.apple {
            for suite in profile.cipherSuites where !GreaseValues.isGrease(suite) {
                #expect(CipherSuiteCatalogue.entry(suite) != nil, "\(profile.name): 0x\(String(suite, radix: 16))")
            }
        }
    }

    @Test(
        "the key exchange is read from the IANA name",
        arguments: [
            (UInt16(0xC02F), CipherSuiteCatalogue.KeyExchange.ecdhe), (0x009E, .dhe), (0x000A, .rsa), (0xC00E, .ecdh),
            (0x0030, .dh), (0xC017, .ecdhAnon), (0x0018, .dhAnon), (0x008C, .psk), (0xC0AA, .dhePSK),
            (0xD001, .ecdhePSK),
            (0x0094, .rsaPSK), (0xC01A, .srp), (0x1301, .tls13), (0x1305, .tls13), (0x00FF, .signalling),
            (0x5600, .signalling), (0x0014, .dhe), (0x0003, .rsa),
        ])
    func keyExchange(code: UInt16, expected: CipherSuiteCatalogue.KeyExchange) throws {
        #expect(try #require(CipherSuiteCatalogue.entry(code)).keyExchange == expected)
    }

    @Test(
        "the suites OpenSSL 3.0 cannot offer are there: 3DES, RC4, DES, export, NULL, Camellia-GCM, ARIA, static ECDH, PSK"
    )
    func beyondOpenSSL() {
        for code: UInt16 in [
            0x000A, 0xC012, 0xC008, 0x0005, 0xC011, 0x0009, 0x0003, 0x0001, 0xC07B, 0xC08A, 0xC050, 0xC061, 0xC031,
            0xC00F, 0x00A8, 0xCCAB,
        ] {
            #expect(CipherSuiteCatalogue.entry(code) != nil, "0x\(String(code, radix: 16))")
        }
        #expect(CipherSuiteCatalogue.name(0xC07B) == "TLS_RSA_WITH_CAMELLIA_256_GCM_SHA384")
        #expect(CipherSuiteCatalogue.name(0xC061) == "TLS_ECDHE_RSA_WITH_ARIA_256_GCM_SHA384")
        #expect(CipherSuiteCatalogue.name(0xC0AF) == "TLS_ECDHE_ECDSA_WITH_AES_256_CCM_8")
        #expect(CipherSuiteCatalogue.name(0xBEEF) == "0xBEEF")
        #expect(CipherSuiteCatalogue.tls13 == [0x1301, 0x1302, 0x1303, 0x1304, 0x1305])
        #expect(
            !CipherSuiteCatalogue.tls12AndBelow.contains(0x00FF) && CipherSuiteCatalogue.tls12AndBelow.contains(0x000A))
    }

    @Test("groups: the hybrids are post-quantum, the classic groups are not, shares where the engine has them")
    func groups() throws {
        let codes = NamedGroupCatalogue.all.map(\.code)
        #expect(Set(codes).count == codes.count)
        for (code, name) in [
            (UInt16(0x11EC), "X25519MLKEM768"), (0x11EB, "SecP256r1MLKEM768"), (0x11ED, "SecP384r1MLKEM1024"),
            (0x6399, "X25519Kyber768Draft00"),
        ] {
            let entry = try #require(NamedGroupCatalogue.entry(code))
            #expect(entry.name == name && entry.isPostQuantum)
        }
        for code: UInt16 in [0x001D, 0x0017, 0x0018, 0x0019, 0x001E, 0x0100, 0x0104, 0x001A] {
            #expect(NamedGroupCatalogue.entry(code)?.isPostQuantum == false)
        }
        #expect(
            NamedGroupCatalogue.all.filter(\.hasKeyShare).map(\.code).sorted() == [
                0x0017, 0x0018, 0x0019, 0x001D, 0x11EB, 0x11EC, 0x11ED,
            ])
        #expect(NamedGroupCatalogue.current.allSatisfy { NamedGroupCatalogue.entry($0) != nil })
    }
}
