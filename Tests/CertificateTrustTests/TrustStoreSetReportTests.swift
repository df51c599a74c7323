import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

/// The one certificate report (`TrustStoreSet.report`): a certificate OpenSSL cannot read is a fact of the report, with
/// its position and the parser's reason, never dropped in silence.
@Suite("Certificate report of served bytes")
struct TrustStoreSetReportTests {
    static let pki = try! TestPKI.make(name: "unparsed")

    /// A store of the PKI's root only (a `--ca-file` with no system roots).
    static func trust() throws -> TrustStoreSet {
        let path = TestScratch.file("atscheck-unparsed-ca", suffix: ".pem")
        try pki.rootPEM.write(toFile: path, atomically: true, encoding: .utf8)
        return try TrustStoreSet(source: .none, caFiles: [path], useSystemStore: false)
    }

    /// Bytes that are not a certificate: a DER SEQUENCE of one INTEGER, and a certificate cut short.
    static let notCertificates: [(String, [UInt8])] = [
        ("a SEQUENCE of one INTEGER", [0x30, 0x03, 0x02, 0x01, 0x05]),
        ("a certificate cut in half", Array(pki.intermediate.der.prefix(pki.intermediate.der.count / 2))),
    ]

    @Test(
        "an unreadable certificate in the served chain is reported at its position; the rest is judged",
        arguments: 0..<2)
    func servedUnparsed(_ index: Int) throws {
        let (name, garbage) = Self.notCertificates[index]
        let leaf = try Self.pki.leaf(.leaf("unparsed.atscheck.test"))
        let report = try Self.trust().report(
            served: [[UInt8](leaf.der), garbage, [UInt8](Self.pki.intermediate.der)], delivered: nil, ocspStapled: nil,
            host: "unparsed.atscheck.test", logList: nil, now: Date())
        let unparsed = try #require(report.unparsedCertificates, "\(name)")
        #expect(unparsed.count == 1)
        #expect(unparsed.first?.origin == .served)
        #expect(unparsed.first?.position == 2)
        #expect(unparsed.first?.der == Data(garbage))
        // OpenSSL's own reason, not a stand-in: its error queue names the ASN.1 decoder.
        #expect(unparsed.first?.reason.contains("parsing a certificate (DER)") == true, "\(unparsed)")
        #expect(unparsed.first?.reason.lowercased().contains("asn1") == true, "\(unparsed)")
        #expect(report.chain.map(\.der) == [leaf.der, Self.pki.intermediate.der])
        #expect(report.trusted == true, "\(report.verifyError ?? "")")
    }

    @Test("an unreadable leaf leaves an empty chain, not evaluated, and says why")
    func leafUnparsed() throws {
        let report = try Self.trust().report(
            served: [[0x30, 0x00], [UInt8](Self.pki.intermediate.der)], delivered: nil, ocspStapled: true,
            host: "unparsed.atscheck.test", logList: nil, now: Date())
        #expect(report.unparsedCertificates?.map(\.position) == [1])
        // SHA-256 of 30 00, computed by Python's hashlib, not by OpenSSL.
        #expect(
            report.unparsedCertificates?.first?.sha256
                == "e4f60d0aa6d7f3d3b6a6494b1c861b99f649c6f9ec51abaf201b20f297327c95")
        // No leaf, no chain to judge: the intermediate is not judged as if it were the server's certificate.
        #expect(report.chain.isEmpty)
        #expect(report.trusted == nil)
        #expect(report.hostnameMatches == nil)
        #expect(report.ocspStapled == true)
    }

    @Test("an unreadable fetched issuer is reported as fetched")
    func fetchedUnparsed() throws {
        let leaf = try Self.pki.leaf(.leaf("unparsed.atscheck.test"))
        let report = try Self.trust().report(
            served: [[UInt8](leaf.der)], delivered: nil, ocspStapled: nil, host: "unparsed.atscheck.test",
            logList: nil, now: Date(), fetched: [[0x01, 0x02], [UInt8](Self.pki.intermediate.der)])
        #expect(report.unparsedCertificates?.map(\.origin) == [.fetched])
        #expect(report.unparsedCertificates?.map(\.position) == [1])
        #expect(report.trusted == true, "the fetched issuer that parses completes the path")
    }

    @Test("every certificate read: no field, and none in JSON")
    func allParsed() throws {
        let leaf = try Self.pki.leaf(.leaf("unparsed.atscheck.test"))
        let report = try Self.trust().report(
            served: [[UInt8](leaf.der), [UInt8](Self.pki.intermediate.der)], delivered: nil, ocspStapled: nil,
            host: "unparsed.atscheck.test", logList: nil, now: Date())
        #expect(report.unparsedCertificates == nil)
        let json = String(decoding: try JSONEncoder().encode(report), as: UTF8.self)
        #expect(!json.contains("unparsedCertificates"))
    }

    @Test("the fact survives JSON: a saved profile keeps it")
    func roundTrip() throws {
        let report = try Self.trust().report(
            served: [[0x30, 0x00]], delivered: nil, ocspStapled: nil, host: "x", logList: nil, now: Date())
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let json = try encoder.encode(report)
        #expect(String(decoding: json, as: UTF8.self).contains("\"unparsedCertificates\""))
        let back = try decoder.decode(CertificateReport.self, from: json)
        #expect(back.unparsedCertificates == report.unparsedCertificates)
        #expect(back.unparsedCertificates?.first?.der == Data([0x30, 0x00]))
    }
}

extension TrustStoreSetReportTests {
    /// A saved profile whose delivered SCT bytes no longer parse (edited, or cut): the SCT is reported with OpenSSL's
    /// reason, not dropped, so a CT verdict is never drawn from fewer SCTs than the report admits.
    @Test("an unreadable delivered SCT is reported in transparency, with OpenSSL's reason")
    func unparsedSCT() throws {
        let ca = TestScratch.file("atscheck-unparsed-sct", suffix: ".pem")
        try Self.pki.rootPEM.write(toFile: ca, atomically: true, encoding: .utf8)
        let leaf = try Self.pki.leaf(.leaf("unparsed.atscheck.test"))
        let garbage = Data([0x00, 0x01, 0x02])  // version 0 (v1), then a log ID cut after two bytes
        let delivered = [
            SCTFacts(source: .tlsExtension, logID: "", timestamp: Date(), signature: .unverified, serialized: garbage)
        ]
        let report = try ChainReports(source: .none, caFiles: [ca], logList: nil).report(
            chain: [leaf.der, Self.pki.intermediate.der], delivered: delivered, ocspStapled: false,
            host: "unparsed.atscheck.test", now: Date())
        let transparency = try #require(report.transparency)
        #expect(transparency.scts.isEmpty)
        #expect(transparency.unparsedSCTs?.map(\.source) == [.tlsExtension])
        #expect(transparency.unparsedSCTs?.first?.serialized == garbage)
        #expect(transparency.unparsedSCTs?.first?.reason.contains("parsing an SCT (o2i_SCT)") == true)
    }
}
