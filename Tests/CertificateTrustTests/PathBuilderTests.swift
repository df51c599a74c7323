import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// `BUILD(anchors, policy)` of docs/pinning-rules.md §8 with OpenSSL: the path it returns, partial-chain pinned
/// anchors, the sslserver purpose and the injected time.
@Suite("Served-chain path builder")
struct PathBuilderTests {
    static let pki = try! TestPKI.make(name: "path builder")

    func caFile() throws -> String {
        let path = TestScratch.file("atscheck-pb", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    func builder(_ chain: [TestCertificate], ca: Bool = true, now: Date = Date()) throws -> ServedChainPathBuilder {
        try ServedChainPathBuilder(
            served: chain.map(\.der), caFiles: ca ? [try caFile()] : [], useSystemStore: false, now: now)
    }

    @Test("the path ends at the --ca-file root the server did not send, and leaves out unrelated certificates sent")
    func pathIsBuiltNotSent() throws {
        let leaf = try Self.pki.leaf(.leaf("pb.atscheck.test"))
        let other = try TestPKI.make(name: "path builder other")
        let built = try builder([leaf, Self.pki.intermediate, other.intermediate]).build(
            anchors: .system)
        #expect(built.ok)
        #expect(built.anchor == .custom)
        #expect(built.path.map(\.der) == [leaf.der, Self.pki.intermediate.der, Self.pki.root.der])
    }

    @Test("only the pinned certificates anchor, with partial chains: a pinned intermediate or leaf ends the path")
    func pinnedAnchors() throws {
        let leaf = try Self.pki.leaf(.leaf("pb.atscheck.test"))
        let b = try builder([leaf, Self.pki.intermediate], ca: false)
        #expect(b.build(anchors: .system).ok == false)
        let toIntermediate = b.build(anchors: .only([Self.pki.intermediate.der]))
        #expect(toIntermediate.ok)
        #expect(toIntermediate.path.map(\.der) == [leaf.der, Self.pki.intermediate.der])
        let toLeaf = b.build(anchors: .only([leaf.der]))
        #expect(toLeaf.ok)
        #expect(toLeaf.path.count == 1)
        let unrelated = b.build(
            anchors: .only([try TestPKI.make(name: "pb unrelated").intermediate.der]))
        #expect(unrelated.ok == false)
        #expect(unrelated.path.first?.der == leaf.der)
    }

    @Test("no OpenSSL purpose: a root whose critical EKU is anyExtendedKeyUsage anchors (Alamofire's test chains)")
    func noOpenSSLPurpose() throws {
        // OpenSSL's sslserver purpose refuses such a root ("unsuitable certificate purpose"); Apple never checks the
        // anchor's EKU.
        let root = try TestCertificate.selfSigned(
            CertificateSpec.ca("pb anyEKU root").withExtension("extendedKeyUsage", "critical,anyExtendedKeyUsage"))
        let leaf = try root.issue(.leaf("pb.atscheck.test"))
        let path = TestScratch.file("atscheck-pb", suffix: ".pem")
        try root.pem.write(toFile: path, atomically: true, encoding: .utf8)
        let b = try ServedChainPathBuilder(served: [leaf.der], caFiles: [path], useSystemStore: false)
        let built = b.build(anchors: .system)
        #expect(built.ok, "\(built.error ?? "")")
        #expect(built.path.map(\.der) == [leaf.der, root.der])
        let clientOnly = try Self.pki.leaf(
            CertificateSpec.leaf("pb.atscheck.test").withExtendedKeyUsage(["clientAuth"]))
        #expect(try builder([clientOnly, Self.pki.intermediate]).build(anchors: .system).ok)
    }

    @Test("the verification time is injected")
    func injectedTime() throws {
        let leaf = try Self.pki.leaf(.leaf("pb.atscheck.test"))
        let later = try builder([leaf, Self.pki.intermediate], now: Date().addingTimeInterval(100 * 86_400))
        let built = later.build(anchors: .system)
        #expect(built.ok == false)
        #expect(built.error == "certificate has expired")
        #expect(built.path.count == 3)  // the best-effort path goes on past the failure
    }
}
