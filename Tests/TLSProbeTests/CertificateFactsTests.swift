import Foundation
import TLSModel
import TLSProbe
import TLSTestSupport
import Testing

/// Certificate facts read through OpenSSL from minted certificates served over real handshakes.
@Suite("Certificate facts and verification", .serialized)
struct CertificateFactsTests {
    static let day: TimeInterval = 86_400

    func serve(_ leafSpec: CertificateSpec, sendIntermediate: Bool = true) async throws -> ServerProfile {
        let pki = TestPKI.shared
        let leaf = try pki.leaf(leafSpec)
        let chain = sendIntermediate ? pki.chain(for: leaf) : [leaf]
        let server = try TestTLSServer(TLSServerConfiguration(chain: chain))
        defer { server.stop() }
        return try await ProbeFixtures.scan(server, host: "localhost")
    }

    @Test("a good leaf: facts, path to the --ca-file root, hostname, pins")
    func goodLeaf() async throws {
        let profile = try await serve(.leaf("localhost", "127.0.0.1"))
        let cert = try #require(profile.certificate)
        let leaf = try #require(cert.leaf)
        #expect(cert.trusted == true)
        #expect(cert.verifyError == nil)
        #expect(cert.anchor == .custom)
        #expect(cert.hostnameMatches == true)
        #expect(cert.chain.count == 2)
        #expect(cert.verifiedChain.count == 3)  // leaf, intermediate, and the root the server did not send
        #expect(cert.verifiedChain.last?.sha256 == TestPKI.shared.root.der.sha256Hex)
        #expect(leaf.keyType == "RSA" && leaf.keyBits == 2048)
        #expect(leaf.signatureAlgorithm == "sha256WithRSAEncryption")
        #expect(leaf.signatureHash == "SHA256")
        #expect(leaf.subjectAltNames == ["localhost"])
        #expect(leaf.ipAddresses == ["127.0.0.1"])
        #expect(leaf.extendedKeyUsage == ["serverAuth"])
        #expect(leaf.isCA == false || leaf.isCA == nil)
        #expect(leaf.sha256 == TestCertificateDigest.hex(of: leaf.der))
        #expect(leaf.der.count > 300)
        #expect(Data(base64Encoded: leaf.spkiSHA256)?.count == 32)
        #expect(cert.chain[1].isCA == true)
        #expect(cert.chain[1].keyUsage?.contains("keyCertSign") == true)
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        var spec: @Sendable () -> CertificateSpec
        var sendIntermediate = true
        var check: @Sendable (CertificateReport) -> Bool
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(
            name: "RSA-1024", spec: { .leaf("localhost", key: .rsa(bits: 1024)) },
            check: { $0.leaf?.keyBits == 1024 && $0.leaf?.keyType == "RSA" }),
        Case(
            name: "SHA-1 signed", spec: { .leaf("localhost", digest: .sha1) },
            check: { $0.leaf?.signatureHash == "SHA1" && $0.leaf?.signatureAlgorithm == "sha1WithRSAEncryption" }),
        Case(
            name: "MD5 signed", spec: { .leaf("localhost", digest: .md5) },
            check: { $0.leaf?.signatureHash == "MD5" }),
        Case(
            name: "expired",
            spec: { .leaf("localhost", validityDays: 10, notBefore: Date().addingTimeInterval(-30 * day)) },
            check: { $0.trusted == false && $0.verifyErrorCode == 10 && $0.verifyError == "certificate has expired" }),
        Case(
            name: "not yet valid", spec: { .leaf("localhost", notBefore: Date().addingTimeInterval(5 * day)) },
            check: { $0.trusted == false && $0.verifyErrorCode == 9 }),
        Case(
            name: "wrong host", spec: { .leaf("other.atscheck.test") },
            check: { $0.hostnameMatches == false && $0.trusted == true }),
        Case(
            name: "CN only (no SAN)", spec: { CertificateSpec(commonName: "localhost") },
            check: {
                $0.hostnameMatches == false && $0.leaf?.subjectAltNames == [] && $0.leaf?.commonName == "localhost"
            }),
        Case(
            name: "no serverAuth EKU",
            spec: {
                var spec = CertificateSpec.leaf("localhost")
                spec.extendedKeyUsage = ["clientAuth"]
                return spec
            },
            check: { $0.leaf?.extendedKeyUsage == ["clientAuth"] && $0.leaf?.allowsServerAuth == false }),
        Case(
            name: "validity over 825 days", spec: { .leaf("localhost", validityDays: 900) },
            check: { ($0.leaf?.lifetimeDays ?? 0) > 825 }),
        Case(
            name: "missing intermediate", spec: { .leaf("localhost") }, sendIntermediate: false,
            check: { $0.trusted == false && $0.verifyErrorCode == 20 && $0.chain.count == 1 }),
        Case(
            name: "wildcard SAN", spec: { .leaf("*.atscheck.test") },
            check: { $0.leaf?.subjectAltNames == ["*.atscheck.test"] }),
        Case(
            name: "ECDSA P-384 key", spec: { .leaf("localhost", key: .ec(curve: "P-384")) },
            check: { $0.leaf?.keyType == "EC" && $0.leaf?.curve == "P-384" && $0.leaf?.keyBits == 384 }),
        Case(
            name: "embedded SCTs are counted",
            spec: {
                var spec = CertificateSpec.leaf("localhost")
                spec.embeddedSCTs = 3
                return spec
            },
            check: { $0.leaf?.embeddedSCTs == 3 }),
    ]

    @Test("weak and broken certificates are read and flagged", arguments: cases)
    func facts(_ c: Case) async throws {
        let profile = try await serve(c.spec(), sendIntermediate: c.sendIntermediate)
        #expect(profile.status == .completed, "\(profile.error ?? "")")
        let cert = try #require(profile.certificate)
        #expect(
            c.check(cert),
            "\(c.name): trusted=\(String(describing: cert.trusted)) err=\(cert.verifyError ?? "-") leaf=\(String(describing: cert.leaf))"
        )
    }

    @Test("self-signed leaf: not trusted, error named, anchor none")
    func selfSigned() async throws {
        let cert = try TestCertificate.selfSigned(.leaf("localhost"))
        let server = try TestTLSServer(TLSServerConfiguration(chain: [cert]))
        defer { server.stop() }
        let profile = try await ProbeFixtures.scan(server)
        let report = try #require(profile.certificate)
        #expect(report.trusted == false)
        #expect(report.verifyErrorCode == 18)
        #expect(report.anchor == AnchorKind.none)
        #expect(report.leaf?.selfSigned == true)
    }

    @Test("wildcard SAN matches one label via --resolve")
    func wildcardMatches() async throws {
        let leaf = try TestPKI.shared.leaf(.leaf("*.atscheck.test"))
        let server = try TestTLSServer(TLSServerConfiguration(chain: TestPKI.shared.chain(for: leaf)))
        defer { server.stop() }
        #expect(try await ProbeFixtures.scan(server, host: "api.atscheck.test").certificate?.hostnameMatches == true)
        #expect(try await ProbeFixtures.scan(server, host: "a.b.atscheck.test").certificate?.hostnameMatches == false)
    }

    @Test("verification time is injectable: a valid chain judged a year later has expired")
    func injectedTime() async throws {
        let server = try TestTLSServer(TLSServerConfiguration())
        defer { server.stop() }
        let later = Date().addingTimeInterval(365 * Self.day)
        let profile = try await ProbeFixtures.scan(server, now: later)
        #expect(profile.certificate?.trusted == false)
        #expect(profile.certificate?.verifyErrorCode == 10)
        #expect(profile.certificate?.verifiedAt == later)
    }
}

enum TestCertificateDigest {
    static func hex(of data: Data) -> String { data.sha256Hex }
}

extension Data {
    /// SHA-256 in lower-case hex, computed independently of the probe (via /usr/bin/sha256sum-free Foundation-less code).
    var sha256Hex: String { SHA256Reference.digest([UInt8](self)).map { String(format: "%02x", $0) }.joined() }
}

/// A small reference SHA-256 (FIPS 180-4) so tests do not check OpenSSL's digest with OpenSSL.
enum SHA256Reference {
    static let k: [UInt32] = [
        0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
        0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
        0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
        0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
        0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
        0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
        0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
        0xc67178f2,
    ]

    static func digest(_ message: [UInt8]) -> [UInt8] {
        var h: [UInt32] = [
            0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19,
        ]
        var data = message + [0x80]
        while data.count % 64 != 56 { data.append(0) }
        let bits = UInt64(message.count) * 8
        for i in (0..<8).reversed() { data.append(UInt8(truncatingIfNeeded: bits >> (UInt64(i) * 8))) }
        func rotr(_ x: UInt32, _ n: UInt32) -> UInt32 { (x >> n) | (x << (32 - n)) }
        for chunk in stride(from: 0, to: data.count, by: 64) {
            var w = [UInt32](repeating: 0, count: 64)
            for i in 0..<16 {
                w[i] = data[chunk + 4 * i..<chunk + 4 * i + 4].reduce(0) { $0 << 8 | UInt32($1) }
            }
            for i in 16..<64 {
                let s0 = rotr(w[i - 15], 7) ^ rotr(w[i - 15], 18) ^ (w[i - 15] >> 3)
                let s1 = rotr(w[i - 2], 17) ^ rotr(w[i - 2], 19) ^ (w[i - 2] >> 10)
                w[i] = w[i - 16] &+ s0 &+ w[i - 7] &+ s1
            }
            var (a, b, c, d, e, f, g, hh) = (h[0], h[1], h[2], h[3], h[4], h[5], h[6], h[7])
            for i in 0..<64 {
                let s1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)
                let t1 = hh &+ s1 &+ ((e & f) ^ (~e & g)) &+ k[i] &+ w[i]
                let s0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)
                let t2 = s0 &+ ((a & b) ^ (a & c) ^ (b & c))
                (hh, g, f, e, d, c, b, a) = (g, f, e, d &+ t1, c, b, a, t1 &+ t2)
            }
            h = [h[0] &+ a, h[1] &+ b, h[2] &+ c, h[3] &+ d, h[4] &+ e, h[5] &+ f, h[6] &+ g, h[7] &+ hh]
        }
        return h.flatMap { v in (0..<4).map { UInt8(truncatingIfNeeded: v >> (24 - 8 * $0)) } }
    }
}
