import Foundation
import TLSModel
import Testing

@Suite("Typed certificate facts")
struct CertificateRegistriesTests {
    static func json<T: Encodable>(_ value: T) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }

    @Test(
        "well-known values encode as the strings OpenSSL gives, and decode back",
        arguments: [
            ("RSA", "RSA"), ("EC", "EC"), ("Ed25519", "Ed25519"), ("Ed448", "Ed448"), ("DSA", "DSA"),
        ])
    func keyAlgorithms(_ text: String, _ encoded: String) throws {
        let value = KeyAlgorithm(rawValue: text)
        #expect(try Self.json([value]) == "[\"\(encoded)\"]")
        #expect(try JSONDecoder().decode([KeyAlgorithm].self, from: Data("[\"\(text)\"]".utf8)) == [value])
    }

    @Test(
        "digests: OpenSSL's short names round-trip; SHA-1 spellings normalise",
        arguments: [
            ("SHA1", SignatureDigest.sha1), ("SHA-1", .sha1), ("sha1", .sha1), ("SHA256", .sha256),
            ("SHA-256", .sha256),
            ("MD5", .md5), ("md5", .md5), ("SHA384", .sha384), ("SHA512", .sha512), ("MD2", .md2), ("MD4", .md4),
        ])
    func digests(_ text: String, _ expected: SignatureDigest) throws {
        let value = try JSONDecoder().decode(SignatureDigest.self, from: Data("\"\(text)\"".utf8))
        #expect(value == expected)
        #expect(try Self.json(value) == "\"\(expected.rawValue)\"")
    }

    @Test("EKU: names round-trip; a well-known OID reads as its name")
    func extendedKeyUsage() throws {
        let usages: [ExtendedKeyUsage] = [.serverAuth, .clientAuth, .anyExtendedKeyUsage, .ocspSigning]
        let text = try Self.json(usages)
        #expect(text == #"["serverAuth","clientAuth","anyExtendedKeyUsage","OCSPSigning"]"#)
        #expect(try JSONDecoder().decode([ExtendedKeyUsage].self, from: Data(text.utf8)) == usages)
        #expect(ExtendedKeyUsage(rawValue: "1.3.6.1.5.5.7.3.1") == .serverAuth)
        #expect(ExtendedKeyUsage(rawValue: "2.5.29.37.0") == .anyExtendedKeyUsage)
    }

    @Test("values atscheck does not know survive a round trip unchanged")
    func unknownValuesSurvive() throws {
        let facts = CertificateFacts(
            subject: "CN=a", issuer: "CN=a", serialNumber: "01", notBefore: Date(timeIntervalSince1970: 0),
            notAfter: Date(timeIntervalSince1970: 86_400), keyType: "SM2", keyBits: 256,
            signatureAlgorithm: "SM2-with-SM3",
            signatureHash: "SM3", extendedKeyUsage: ["1.2.3.4.5", "whirlpoolAuth"], sha256: "00", spkiSHA256: "AA==")
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let data = try encoder.encode(facts)
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        #expect(object["keyType"] as? String == "SM2")
        #expect(object["signatureHash"] as? String == "SM3")
        #expect(object["extendedKeyUsage"] as? [String] == ["1.2.3.4.5", "whirlpoolAuth"])
        let back = try JSONDecoder().decode(CertificateFacts.self, from: data)
        #expect(back == facts && back.keyType.rawValue == "SM2" && back.keyType != .ec)
        #expect(!back.allowsServerAuth)
        #expect(SignatureDigest(rawValue: "SHA512-224").rawValue == "SHA512-224", "only known spellings normalise")
    }

    @Test("typed comparisons: serverAuth or anyExtendedKeyUsage allow server use; no EKU allows it")
    func allowsServerAuth() {
        func facts(_ eku: [ExtendedKeyUsage]?) -> CertificateFacts {
            CertificateFacts(
                subject: "", issuer: "", serialNumber: "1", notBefore: Date(), notAfter: Date(), keyType: .ec,
                keyBits: 256, signatureAlgorithm: "ecdsa-with-SHA256", signatureHash: .sha256, extendedKeyUsage: eku,
                sha256: "", spkiSHA256: "")
        }
        #expect(facts(nil).allowsServerAuth && facts([.serverAuth]).allowsServerAuth)
        #expect(facts(["2.5.29.37.0"]).allowsServerAuth)
        #expect(!facts([.clientAuth]).allowsServerAuth)
    }
}
