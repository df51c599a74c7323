import Foundation
import TLSModel
import Testing

@Suite("Key-exchange groups")
struct NamedGroupTests {
    struct Known: CustomTestStringConvertible, Sendable {
        let group: NamedGroup
        let iana: String
        let code: String
        let postQuantum: Bool
        let bits: Int?
        var testDescription: String { iana }
    }

    static let known: [Known] = [
        Known(group: .X25519MLKEM768, iana: "X25519MLKEM768", code: "0x11EC", postQuantum: true, bits: 128),
        Known(group: .SecP256r1MLKEM768, iana: "SecP256r1MLKEM768", code: "0x11EB", postQuantum: true, bits: 128),
        Known(group: .SecP384r1MLKEM1024, iana: "SecP384r1MLKEM1024", code: "0x11ED", postQuantum: true, bits: 192),
        Known(
            group: .X25519Kyber768Draft00, iana: "X25519Kyber768Draft00", code: "0x6399", postQuantum: true, bits: 128),
        Known(group: .MLKEM768, iana: "MLKEM768", code: "0x0201", postQuantum: true, bits: nil),
        Known(group: .x25519, iana: "x25519", code: "0x001D", postQuantum: false, bits: 128),
        Known(group: .x448, iana: "x448", code: "0x001E", postQuantum: false, bits: 224),
        Known(group: .secp256r1, iana: "secp256r1", code: "0x0017", postQuantum: false, bits: 128),
        Known(group: .secp384r1, iana: "secp384r1", code: "0x0018", postQuantum: false, bits: 192),
        Known(group: .secp521r1, iana: "secp521r1", code: "0x0019", postQuantum: false, bits: 256),
        Known(group: .brainpoolP256r1, iana: "brainpoolP256r1", code: "0x001A", postQuantum: false, bits: 128),
        Known(
            group: .brainpoolP384r1tls13, iana: "brainpoolP384r1tls13", code: "0x0020", postQuantum: false, bits: 192),
        Known(group: .ffdhe2048, iana: "ffdhe2048", code: "0x0100", postQuantum: false, bits: 103),
        Known(group: .ffdhe8192, iana: "ffdhe8192", code: "0x0104", postQuantum: false, bits: 192),
    ]

    @Test("the registry's codes, IANA names, post-quantum flag and classical strength", arguments: known)
    func registry(_ known: Known) throws {
        let info = try #require(known.group.info)
        #expect(info.ianaName == known.iana && known.group.hexCode == known.code)
        #expect(info.postQuantum == known.postQuantum && known.group.isPostQuantum == known.postQuantum)
        #expect(info.classicalBits == known.bits)
        // Each parses back from its code, its name (any case) and its display name.
        #expect(NamedGroup(text: known.code) == known.group)
        #expect(NamedGroup(text: known.iana.uppercased()) == known.group)
        #expect(NamedGroup(text: info.displayName) == known.group)
        let accepted = AcceptedGroup(group: known.group)
        #expect(accepted.name == known.iana && accepted.code == known.code && accepted.group == known.group)
        #expect(accepted.postQuantum == known.postQuantum && accepted.bits == known.bits)
    }

    @Test("hybrids and TLS 1.3-only codes are told apart from the classical groups")
    func kinds() {
        #expect(AcceptedGroup(group: .X25519MLKEM768).isHybrid && !AcceptedGroup(group: .MLKEM768).isHybrid)
        #expect(
            NamedGroup.X25519Kyber768Draft00.info?.obsolete == true && NamedGroup.X25519MLKEM768.info?.obsolete == false
        )
        #expect(NamedGroup.X25519MLKEM768.info?.minimumVersion == .tls1_3)
        #expect(NamedGroup.brainpoolP256r1tls13.info?.minimumVersion == .tls1_3)
        #expect(NamedGroup.ffdhe2048.info?.kind == .finiteField && NamedGroup.secp256r1.info?.displayName == "P-256")
        #expect(NamedGroup.known.map(\.group) == NamedGroup.known.map(\.group).sorted())
        #expect(Set(NamedGroup.known.map(\.group)).count == NamedGroup.registry.count, "a code listed twice")
        #expect(Set(NamedGroup.known.map { $0.ianaName.lowercased() }).count == NamedGroup.registry.count)
    }

    @Test("an unknown code stays representable; GREASE is recognised; nonsense does not parse")
    func unknown() throws {
        let grease = try #require(NamedGroup(text: "0x7A7A"))
        #expect(grease.info == nil && grease.ianaName == "0x7A7A" && !grease.isPostQuantum && grease.isGREASE)
        #expect(!NamedGroup.x25519.isGREASE && !NamedGroup(0x0A1A).isGREASE)
        let accepted = AcceptedGroup(group: NamedGroup(0x4242))
        #expect(accepted.name == "0x4242" && !accepted.postQuantum && accepted.bits == nil)
        #expect(NamedGroup(text: "curve9") == nil && NamedGroup(text: "0x11E") == nil)
    }

    @Test("a group encodes as its code and decodes from code or name")
    func coding() throws {
        let data = try JSONEncoder().encode([NamedGroup.X25519MLKEM768, .x25519])
        #expect(String(decoding: data, as: UTF8.self) == #"["0x11EC","0x001D"]"#)
        let names = Data(#"["X25519MLKEM768","secp256r1","0x6399"]"#.utf8)
        #expect(
            try JSONDecoder().decode([NamedGroup].self, from: names) == [
                .X25519MLKEM768, .secp256r1, .X25519Kyber768Draft00,
            ])
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode([NamedGroup].self, from: Data(#"["nope"]"#.utf8))
        }
    }
}
