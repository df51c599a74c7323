import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// `PolicyExplainer` (issue 4, `atscheck plist --explain`) against the tables of docs/apple-rules.md: the corrected
/// matrix of §4.2, §4.1, the inverted pattern of §4.3, local names and IP literals of §4.5, the subdomain
/// depth CONFLICT of §4.4 and NIAP (§1.4).
@Suite("plist --explain: effective policy per host pattern, OS era and client")
struct ExplainerTests {
    static let aal = "NSAllowsArbitraryLoads"
    static let web = "NSAllowsArbitraryLoadsInWebContent"
    static let media = "NSAllowsArbitraryLoadsForMedia"
    static let local = "NSAllowsLocalNetworking"
    static let root = "NSAppTransportSecurity"

    static func explain(_ dictionary: [String: Any]) -> PolicyExplanation {
        PolicyExplainer.explain(dictionary: dictionary)
    }

    static func host(_ e: PolicyExplanation, _ pattern: String) throws -> HostPatternPolicy {
        try #require(e.hosts.first { $0.pattern == pattern }, "no pattern \(pattern) in \(e.hosts.map(\.pattern))")
    }

    static func era(_ h: HostPatternPolicy, _ label: String) throws -> EraPolicy {
        try #require(h.eras.first { $0.era == label }, "no era \(label)")
    }

    /// `B` (blocked: ATS on) or `O` (off) for URLSession, WKWebView, media, UIWebView.
    static func letters(_ era: EraPolicy) -> String {
        String(era.clients.map { $0.atsApplies ? "B" : "O" })
    }

    struct MatrixRow: Sendable, CustomStringConvertible {
        var description: String
        var keys: [String: Bool]
        var era: String
        /// URLSession, WKWebView, AVFoundation media, UIWebView (§4.2 columns).
        var cells: String
        /// The keys that decide the URLSession cell.
        var urlSessionDecidedBy: [String]
    }

    /// §4.2 "Corrected matrix", one row per table row and OS column (public host).
    static let matrix: [MatrixRow] = [
        MatrixRow(description: "(none) on 9", keys: [:], era: "9", cells: "BBBB", urlSessionDecidedBy: []),
        MatrixRow(description: "(none) on 10+", keys: [:], era: "10–16", cells: "BBBB", urlSessionDecidedBy: []),
        MatrixRow(
            description: "AAL on 9", keys: [aal: true], era: "9", cells: "OOOO", urlSessionDecidedBy: ["\(root).\(aal)"]
        ),
        MatrixRow(
            description: "AAL on 10+", keys: [aal: true], era: "17+", cells: "OOOO",
            urlSessionDecidedBy: ["\(root).\(aal)"]),
        MatrixRow(
            description: "AAL + InWebContent on 9", keys: [aal: true, web: true], era: "9", cells: "OOOO",
            urlSessionDecidedBy: ["\(root).\(aal)"]),
        MatrixRow(
            description: "AAL + InWebContent on 10+", keys: [aal: true, web: true], era: "10–16", cells: "BOBB",
            urlSessionDecidedBy: ["\(root).\(web)"]),
        MatrixRow(
            description: "AAL + InWebContent=NO on 9", keys: [aal: true, web: false], era: "9", cells: "OOOO",
            urlSessionDecidedBy: ["\(root).\(aal)"]),
        MatrixRow(
            description: "AAL + InWebContent=NO on 10+", keys: [aal: true, web: false], era: "10–16", cells: "BBBB",
            urlSessionDecidedBy: ["\(root).\(web)"]),
        MatrixRow(
            description: "InWebContent on 9", keys: [web: true], era: "9", cells: "BBBB", urlSessionDecidedBy: []),
        MatrixRow(
            description: "InWebContent on "
                + "10+", keys: [web: true], era: "10–16", cells: "BOBB", urlSessionDecidedBy: []),
        MatrixRow(
            description: "AAL=NO + InWebContent on 10+", keys: [aal: false, web: true], era: "17+", cells: "BOBB",
            urlSessionDecidedBy: []),
        MatrixRow(
            description: "AAL + ForMedia on 10+", keys: [aal: true, media: true], era: "10–16", cells: "BBOB",
            urlSessionDecidedBy: ["\(root).\(media)"]),
        MatrixRow(
            description: "AAL + ForMedia on 9", keys: [aal: true, media: true], era: "9", cells: "OOOO",
            urlSessionDecidedBy: ["\(root).\(aal)"]),
        // §4.1: NSAllowsLocalNetworking (any value) also suppresses AAL for public hosts on 10+.
        MatrixRow(
            description: "AAL + LocalNetworking on 10+", keys: [aal: true, local: true], era: "10–16", cells: "BBBB",
            urlSessionDecidedBy: ["\(root).\(local)"]),
    ]

    @Test("§4.2 corrected matrix, public host", arguments: matrix)
    func correctedMatrix(_ row: MatrixRow) throws {
        let e = Self.explain(row.keys)
        let era = try Self.era(try Self.host(e, "any other public host"), row.era)
        #expect(Self.letters(era) == row.cells)
        #expect(era.clients.map(\.client) == [.urlSession, .wkWebView, .media, .uiWebView])
        let session = era.clients[0]
        #expect(session.decidedBy == row.urlSessionDecidedBy)
        for client in era.clients {
            // ATS on: TLS 1.2, forward secrecy, no cleartext; off: cleartext allowed.
            #expect(client.httpAllowed == !client.atsApplies)
            if client.atsApplies {
                #expect(client.minimumTLS == .tls1_2 && client.forwardSecrecyRequired)
            }
        }
    }

    @Test("UIWebView with InWebContent on 10+: blocked, with the documentation's reading as a CONFLICT")
    func uiWebViewConflict() throws {
        let e = Self.explain([Self.aal: true, Self.web: true])
        let ui = try Self.era(try Self.host(e, "any other public host"), "10–16").clients[3]
        #expect(ui.client == .uiWebView && ui.atsApplies)
        #expect(ui.conflicts.map(\.conflict) == ["uiwebview"])
        #expect(ui.conflicts.first?.reading == "doc-uiwebview-exempt")
        #expect(ui.conflicts.first?.atsApplies == false)
        // No conflict when the key is absent, nor on iOS 9.
        let nine = try Self.era(try Self.host(e, "any other public host"), "9").clients[3]
        #expect(nine.conflicts.isEmpty)
        let none = try Self.era(try Self.host(Self.explain([:]), "any other public host"), "10–16").clients[3]
        #expect(none.conflicts.isEmpty)
    }

    @Test("inverted pattern: AAL=YES + an empty example.com entry keeps full ATS for example.com (§4.3)")
    func invertedPattern() throws {
        let e = Self.explain([Self.aal: true, "NSExceptionDomains": ["example.com": [String: Any]()]])
        let example = try Self.host(e, "example.com")
        #expect(example.kind == .exceptionDomain)
        #expect(example.eras.map(\.era) == ["9", "10–16", "17+"])
        for era in example.eras {
            #expect(Self.letters(era) == "BBBB", "iOS \(era.era)")
            for client in era.clients {
                #expect(client.minimumTLS == .tls1_2 && client.forwardSecrecyRequired && !client.httpAllowed)
                #expect(client.decidedBy == ["NSAppTransportSecurity.NSExceptionDomains.example.com"])
            }
        }
        // No NSIncludesSubdomains: no subdomain rows, and other hosts keep AAL.
        #expect(!e.hosts.contains { $0.pattern == "*.example.com" })
        for era in try Self.host(e, "any other public host").eras {
            #expect(Self.letters(era) == "OOOO", "iOS \(era.era)")
        }
    }

    @Test("an exception entry's keys are what decide, and only the ones that relax something")
    func entryKeys() throws {
        let e = Self.explain([
            "NSExceptionDomains": [
                "legacy.example": [
                    "NSExceptionMinimumTLSVersion": "TLSv1.0", "NSExceptionRequiresForwardSecrecy": false,
                    "NSIncludesSubdomains": true,
                ]
            ]
        ])
        let session = try Self.era(try Self.host(e, "legacy.example"), "17+").clients[0]
        #expect(session.atsApplies && !session.httpAllowed)
        #expect(session.minimumTLS == .tls1_0 && !session.forwardSecrecyRequired)
        let p = "NSAppTransportSecurity.NSExceptionDomains.legacy.example"
        #expect(
            session.decidedBy == [p, "\(p).NSExceptionMinimumTLSVersion", "\(p).NSExceptionRequiresForwardSecrecy"])
        let sub = try Self.era(try Self.host(e, "*.legacy.example"), "17+").clients[0]
        #expect(sub.minimumTLS == .tls1_0)
        #expect(sub.decidedBy.contains("\(p).NSIncludesSubdomains"))
        #expect(sub.conflicts.isEmpty)  // one level down: both readings agree
    }

    @Test("subdomain depth CONFLICT: deeper subdomains inherit only under the Security source's reading (§4.4)")
    func subdomainDepth() throws {
        let e = Self.explain([
            "NSExceptionDomains": [
                "example.com": ["NSIncludesSubdomains": true, "NSExceptionAllowsInsecureHTTPLoads": true]
            ]
        ])
        let deep = try Self.host(e, "*.*.example.com and deeper")
        #expect(deep.exampleHost == "deep.sub.example.com")
        let session = try Self.era(deep, "10–16").clients[0]
        #expect(!session.atsApplies && session.httpAllowed)
        #expect(session.conflicts.map(\.conflict) == ["subdomain-depth"])
        #expect(session.conflicts.first?.reading == "doc-one-level")
        #expect(session.conflicts.first?.atsApplies == true)
        #expect(session.reason.contains("source-any-depth"))
    }

    struct LocalRow: Sendable, CustomStringConvertible {
        var description: String
        var keys: [String: PlistValue] = [:]
        var pattern: String
        /// ATS applies to URLSession, per era 9, 10–16, 17+.
        var ats: [Bool]
        var decidedBy17: [String] = []
    }

    static let localRows: [LocalRow] = [
        LocalRow(description: "localhost, no keys", pattern: "localhost", ats: [true, false, false]),
        LocalRow(description: "*.local, no keys", pattern: "*.local", ats: [true, false, false]),
        LocalRow(
            description: "localhost, NSAllowsLocalNetworking = NO", keys: [local: .bool(false)], pattern: "localhost",
            ats: [true, true, true], decidedBy17: ["\(root).\(local)"]),
        LocalRow(
            description: "IP literal, no keys", pattern: "IP literal (e.g. 192.0.2.10)", ats: [true, false, true]),
        LocalRow(
            description: "IP literal, NSAllowsLocalNetworking = YES", keys: [local: .bool(true)],
            pattern: "IP literal (e.g. 192.0.2.10)", ats: [true, false, false], decidedBy17: ["\(root).\(local)"]),
        // §4.5: IP keys are honoured only from iOS 17; before, 9 cannot except an IP and 10–16 exempt it anyway.
        LocalRow(
            description: "IP exception key",
            keys: [
                "NSExceptionDomains": .dict(["192.0.2.10": .dict(["NSExceptionAllowsInsecureHTTPLoads": .bool(true)])])
            ],
            pattern: "192.0.2.10", ats: [true, false, false],
            decidedBy17: [
                "\(root).NSExceptionDomains.192.0.2.10",
                "\(root).NSExceptionDomains.192.0.2.10.NSExceptionAllowsInsecureHTTPLoads",
            ]),
        LocalRow(
            description: "CIDR exception key",
            keys: [
                "NSExceptionDomains": .dict(["10.0.0.0/8": .dict(["NSExceptionAllowsInsecureHTTPLoads": .bool(true)])])
            ],
            pattern: "10.0.0.0/8", ats: [true, false, false],
            decidedBy17: [
                "\(root).NSExceptionDomains.10.0.0.0/8",
                "\(root).NSExceptionDomains.10.0.0.0/8.NSExceptionAllowsInsecureHTTPLoads",
            ]),
    ]

    @Test("local names and IP literals by era (§4.5)", arguments: localRows)
    func localAndIP(_ row: LocalRow) throws {
        let h = try Self.host(Self.explain(PlistValue.dict(row.keys).foundationValue as! [String: Any]), row.pattern)
        #expect(h.eras.map(\.era) == ["9", "10–16", "17+"])
        #expect(h.eras.map { $0.clients[0].atsApplies } == row.ats)
        // The same for every client: no web or media key is set.
        for era in h.eras { #expect(Set(era.clients.map(\.atsApplies)).count == 1) }
        #expect(h.eras[2].clients[0].decidedBy == row.decidedBy17)
    }

    @Test("NIAP keys add the 26.4+ era, where FCP_v2.1 applies")
    func niap() throws {
        let e = Self.explain([
            "NSRequiresNIAPTLSPackageVersion": "FCP_v2.1",
            "NSExceptionDomains": ["legacy.example": ["NSExceptionRequiresNIAPTLSPackageVersion": "none"]],
        ])
        let other = try Self.host(e, "any other public host")
        #expect(other.eras.map(\.era) == ["9", "10–16", "17–26.3", "26.4+"])
        #expect(other.eras.map { $0.clients[0].niap } == [false, false, false, true])
        #expect(other.eras[3].clients[0].decidedBy == ["NSAppTransportSecurity.NSRequiresNIAPTLSPackageVersion"])
        let legacy = try Self.host(e, "legacy.example")
        #expect(legacy.eras[3].clients[0].niap == false)
        #expect(
            legacy.eras[3].clients[0].decidedBy.contains(
                "NSAppTransportSecurity.NSExceptionDomains.legacy.example.NSExceptionRequiresNIAPTLSPackageVersion"))
        #expect(!Self.explain([:]).hosts[0].eras.contains { $0.era == "26.4+" })
    }

    @Test("the explanation is JSON and decodes back unchanged")
    func json() throws {
        let e = Self.explain([
            Self.aal: true, Self.web: true, "NSExceptionDomains": ["example.com": ["NSIncludesSubdomains": true]],
        ])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(e)
        #expect(try JSONDecoder().decode(PolicyExplanation.self, from: data) == e)
        let text = String(decoding: data, as: UTF8.self)
        #expect(text.contains(#""minimumTLS":"TLSv1.2""#))
        #expect(text.contains(#""client":"WKWebView""#))
        #expect(text.contains(#""kind":"other-public-host""#))
        #expect(text.contains(#""schemaVersion":1"#))
    }
}
