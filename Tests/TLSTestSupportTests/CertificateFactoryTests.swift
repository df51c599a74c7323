import Foundation
import TLSTestSupport
import Testing

@Suite("Certificate factory")
struct CertificateFactoryTests {
    struct KeyCase: Sendable, CustomTestStringConvertible {
        var key: TestKeyType
        var keyType: String
        var bits: Int
        var testDescription: String { key.description }
    }

    @Test(
        "leaf key type and size",
        arguments: [
            KeyCase(key: .rsa(bits: 1024), keyType: "RSA", bits: 1024),
            KeyCase(key: .rsa(bits: 2048), keyType: "RSA", bits: 2048),
            KeyCase(key: .ec(curve: "P-256"), keyType: "EC", bits: 256),
            KeyCase(key: .ec(curve: "P-384"), keyType: "EC", bits: 384),
            KeyCase(key: .ec(curve: "P-224"), keyType: "EC", bits: 224),
        ])
    func keyTypes(_ keyCase: KeyCase) throws {
        let leaf = try TestPKI.shared.leaf(.localhost(key: keyCase.key))
        let details = try leaf.details
        #expect(details.keyType == keyCase.keyType)
        #expect(details.keyBits == keyCase.bits)
        #expect(leaf.key.bits == keyCase.bits)
        #expect(leaf.key.pem.hasPrefix("-----BEGIN PRIVATE KEY-----"))
    }

    @Test(
        "signature digest",
        arguments: [
            (TestDigest.sha256, "sha256WithRSAEncryption"), (.sha384, "sha384WithRSAEncryption"),
            (.sha1, "sha1WithRSAEncryption"), (.md5, "md5WithRSAEncryption"),
        ])
    func digests(_ digest: TestDigest, _ expected: String) throws {
        let leaf = try TestPKI.shared.leaf(.localhost(digest: digest))
        #expect(try leaf.details.signatureAlgorithm == expected)
    }

    @Test("ECDSA issuer signs with ecdsa-with-SHA256")
    func ecdsaIssuer() throws {
        let root = try TestCertificate.selfSigned(.ca("EC Root", key: .ec(curve: "P-256")))
        let leaf = try root.issue(.localhost())
        #expect(try leaf.details.signatureAlgorithm == "ecdsa-with-SHA256")
    }

    @Test("SAN entries, and no SAN extension for a CN-only certificate")
    func subjectAltNames() throws {
        let leaf = try TestPKI.shared.leaf(.leaf("localhost", "127.0.0.1", "::1", "api.example.test"))
        let details = try leaf.details
        #expect(details.dnsNames == ["localhost", "api.example.test"])
        #expect(details.ipAddresses == ["127.0.0.1", "::1"])
        #expect(details.commonName == "localhost")

        let cnOnly = try TestPKI.shared.leaf(.commonNameOnly("legacy.example.test")).details
        #expect(cnOnly.dnsNames == nil)
        #expect(cnOnly.ipAddresses == nil)
        #expect(cnOnly.commonName == "legacy.example.test")

        var noCN = CertificateSpec.localhost()
        noCN.commonName = nil
        #expect(try TestPKI.shared.leaf(noCN).details.commonName == nil)
    }

    @Test("validity dates are the ones asked for")
    func validity() throws {
        let start = Date(timeIntervalSince1970: 1_700_000_000)
        let leaf = try TestPKI.shared.leaf(CertificateSpec.localhost().valid(from: start, days: 900))
        let details = try leaf.details
        #expect(details.notBefore == start)
        #expect(details.notAfter == start.addingTimeInterval(900 * 86_400))

        let expired = try TestPKI.shared.leaf(CertificateSpec.localhost().expired()).details
        #expect(expired.notAfter < Date())
        let future = try TestPKI.shared.leaf(CertificateSpec.localhost().notYetValid()).details
        #expect(future.notBefore > Date())
    }

    @Test("EKU: serverAuth by default, absent when asked, custom when given")
    func extendedKeyUsage() throws {
        #expect(try TestPKI.shared.leaf(.localhost()).details.extendedKeyUsage == ["serverAuth"])
        #expect(try TestPKI.shared.leaf(.localhost().withExtendedKeyUsage(nil)).details.extendedKeyUsage == nil)
        #expect(
            try TestPKI.shared.leaf(.localhost().withExtendedKeyUsage(["clientAuth"])).details.extendedKeyUsage
                == ["clientAuth"])
        #expect(try TestPKI.shared.root.details.extendedKeyUsage == nil)
    }

    @Test("embedded SCT count parses with OpenSSL", arguments: [0, 1, 2, 3])
    func embeddedSCTs(_ count: Int) throws {
        let details = try TestPKI.shared.leaf(.localhost().withEmbeddedSCTs(count)).details
        #expect(details.embeddedSCTs == (count == 0 ? nil : count))
    }

    @Test("PKI: CA flags, issuer names and key identifiers")
    func pki() throws {
        let pki = TestPKI.shared
        let root = try pki.root.details
        let intermediate = try pki.intermediate.details
        let leaf = try pki.leaf(.localhost()).details
        #expect(root.isCA == true)
        #expect(intermediate.isCA == true)
        #expect(leaf.isCA == false)
        #expect(root.issuerCommonName == root.commonName)
        #expect(intermediate.issuerCommonName == root.commonName)
        #expect(leaf.issuerCommonName == intermediate.commonName)
        #expect(intermediate.hasAuthorityKeyIdentifier && intermediate.hasSubjectKeyIdentifier)
        #expect(leaf.hasAuthorityKeyIdentifier)
        #expect(pki.rootPEM.hasPrefix("-----BEGIN CERTIFICATE-----"))
        #expect(pki.root.key !== pki.intermediate.key)
    }

    @Test("two PKIs never share CA keys")
    func distinctPKIs() throws {
        let a = try TestPKI.make()
        let b = try TestPKI.make()
        #expect(a.root.key !== b.root.key)
        #expect(a.root.key.pem != b.root.key.pem)
        #expect(a.intermediate.key.pem != b.intermediate.key.pem)
    }

    @Test("self-signed leaf is its own issuer; explicit serial is kept")
    func selfSigned() throws {
        var spec = CertificateSpec.localhost()
        spec.serial = 4242
        let certificate = try TestCertificate.selfSigned(spec)
        let details = try certificate.details
        #expect(details.issuerCommonName == "localhost")
        #expect(details.hasAuthorityKeyIdentifier == false)
        #expect(details.serial == 4242)
        #expect(certificate.pem.contains("BEGIN CERTIFICATE"))
    }

    @Test("keys are cached per type and slot")
    func keyCache() throws {
        let a = try TestKey.generate(.ec(curve: "P-256"), slot: "cache-test")
        let b = try TestKey.generate(.ec(curve: "P-256"), slot: "cache-test")
        let c = try TestKey.generate(.ec(curve: "P-256"), slot: "cache-test-2")
        #expect(a === b)
        #expect(a !== c)
        #expect(a.pem != c.pem)
    }

    @Test("an impossible key is a thrown keyGeneration error")
    func badCurve() {
        #expect(throws: TestSupportError(.keyGeneration, "")) {
            try TestKey.generateUncached(.ec(curve: "no-such-curve"))
        }
    }
}
