import Foundation
import TLSModel
import Testing

@testable import Reporting

@Suite("JSON written endpoint by endpoint")
struct JSONStreamRenderingTests {
    /// Reports whose layout differs: many endpoints, one, none, a shard, empty findings, nested empty arrays.
    static var reports: [ScanReport] {
        let full = ReportFixtures.report
        var one = full
        one.endpoints = [full.endpoints[1]]
        var none = full
        none.endpoints = []
        var sharded = full
        sharded.shard = ReportShard(index: 1, count: 2, total: 9, selected: 5, positions: [0, 2, 4, 6, 8])
        var bare = ScanReport(endpoints: full.endpoints + full.endpoints)
        bare.findings = []
        return [full, one, none, sharded, bare]
    }

    @Test("the pieces join to the bytes of the whole-string renderer", arguments: 0..<5)
    func sameBytes(index: Int) throws {
        let report = Self.reports[index]
        var pieces: [Data] = []
        try JSONStreamRendering.write(report, to: { pieces.append($0) })
        let whole = try JSONRendering.render(report)
        #expect(String(decoding: pieces.reduce(Data(), +), as: UTF8.self) == whole)
        #expect(pieces.reduce(Data(), +) == Data(whole.utf8))
        // One piece per endpoint between the opening and the rest: no piece holds two endpoints.
        #expect(pieces.count == (report.endpoints.isEmpty ? 1 : report.endpoints.count + 2))
    }

    @Test("certificate chains (DER as base64, dates, URLs with slashes, non-ASCII) come out the same in pieces")
    func chains() throws {
        let leaf = CertificateFacts(
            subject: "CN=ünïcode.example.com/O=A \"B\"", issuer: "CN=Root", serialNumber: "01",
            notBefore: ReportFixtures.date,
            notAfter: ReportFixtures.date.addingTimeInterval(86_400 * 90), keyType: "EC", keyBits: 256,
            signatureAlgorithm: "ecdsa-with-SHA256", signatureHash: "SHA256",
            subjectAltNames: ["a.example.com", "*.b.example.com"],
            extendedKeyUsage: [.serverAuth], isCA: nil, embeddedSCTs: 0, selfSigned: false, sha256: "ab/cd",
            spkiSHA256: "AA==",
            der: Data((0..<700).map { UInt8($0 % 256) }))
        var report = ReportFixtures.report
        for index in report.endpoints.indices {
            report.endpoints[index].profile.certificate = CertificateReport(
                chain: [leaf, leaf], trusted: index % 2 == 0, hostnameMatches: true, verifyError: nil,
                verifiedChain: [leaf], verifiedAt: ReportFixtures.date)
        }
        var out = Data()
        try JSONStreamRendering.write(report, to: { out.append($0) })
        #expect(out == Data(try JSONRendering.render(report).utf8))
        #expect(String(decoding: out, as: UTF8.self).contains("ab/cd"))
    }

    @Test("an endpoint is moved to its depth: blank lines (empty arrays) stay blank")
    func indentation() {
        let json = Data("{\n  \"a\" : [\n\n  ]\n}".utf8)
        let moved = String(decoding: JSONStreamRendering.indented(json, first: false), as: UTF8.self)
        #expect(moved == ",\n    {\n      \"a\" : [\n\n      ]\n    }")
    }

    /// Explanations whose layout differs: one, several (an array), none explained hosts, every optional field.
    static var explanations: [[PolicyExplanation]] {
        let one = ExplainTextTests.explanation
        var full = one
        full.lowestOS = "15.6"
        full.lowestOSSource = "MinimumOSVersion"
        full.configuration = "DEBUG defined"
        full.hosts += full.hosts
        var empty = one
        empty.hosts = []
        return [[one], [full], [one, full], [empty], [empty, one], []]
    }

    @Test("plist --explain's pieces join to the bytes of the whole-string renderer", arguments: 0..<6)
    func explanationBytes(index: Int) throws {
        let explanations = Self.explanations[index]
        var pieces: [Data] = []
        try JSONStreamRendering.write(explanations, to: { pieces.append($0) })
        let whole =
            explanations.count == 1
            ? try JSONRendering.render(explanations[0]) : try JSONRendering.render(explanations)
        #expect(String(decoding: pieces.reduce(Data(), +), as: UTF8.self) == whole)
        if explanations.first?.hosts.count ?? 0 > 1 { #expect(pieces.count > 2, "written host by host") }
    }
}
