import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// A plist finding that says what happens to a host says what `--explain` says for that host (issue 32: a skipped
/// entry's message said "default ATS" where `--explain` said ATS is off). Every such finding of every plist here,
/// and of the corpus, is held to the explanation's cell for its host, era by era.
@Suite("plist messages agree with --explain")
struct FindingConsequenceTests {
    /// The rules whose message quotes `--explain` for a host, and the host each one is about.
    static func host(of finding: Finding, in document: PlistDocument) -> String? {
        guard finding.message.contains("--explain"), let keys = finding.keyPathComponents else { return nil }
        if finding.rule == PlistRuleID.valueWrongType, keys.count == 3, keys[1] == "NSExceptionDomains" {
            return keys[2]
        }
        if finding.rule == PlistRuleID.deadArbitraryLoadsIgnored {
            return PolicyExplainer.otherPublicHost(ATSConfiguration(dictionary: document.atsDictionary ?? [:]))
        }
        return nil
    }

    /// Checks every consequence-stating finding of `document`; returns how many there were.
    @discardableResult
    static func check(_ document: PlistDocument, options: PlistLinter.Options = .init()) -> Int {
        let configuration = ATSConfiguration(dictionary: document.atsDictionary ?? [:])
        let explanation = PolicyExplainer.explain(
            document: document, os: options.os, deploymentTarget: options.deploymentTarget, settings: options.settings)
        var checked = 0
        for finding in PlistLinter.lint(document, options: options) {
            guard let host = host(of: finding, in: document) else { continue }
            checked += 1
            // The explanation's eras (from the app's oldest release) and, for each, the URLSession cell for the host.
            let eras = explanation.hosts.first { !$0.eras.isEmpty }?.eras.map(\.osVersion) ?? []
            #expect(!eras.isEmpty)
            for era in eras {
                let os = AppleOSVersion(string: era) ?? .newest
                let cell = PolicyExplainer.explain(
                    host: host, for: ATSClient(os: os, kind: .urlSession), configuration: configuration)
                #expect(finding.message.contains(cell.reason), "\(finding.message) vs \(cell.reason) on \(era)")
            }
        }
        return checked
    }

    static let plists: [String] = [
        // The issue's case: the skipped host falls back to the global keys, and ATS is off.
        """
        <key>NSAllowsArbitraryLoads</key><true/>
        <key>NSExceptionDomains</key><dict><key>10.0.1.2</key><string>yes</string></dict>
        """,
        "<key>NSExceptionDomains</key><dict><key>api.example.com</key><true/></dict>",
        """
        <key>NSAllowsLocalNetworking</key><true/>
        <key>NSExceptionDomains</key><dict><key>printer.local</key><array/></dict>
        """,
        """
        <key>NSAllowsArbitraryLoads</key><true/><key>NSAllowsArbitraryLoadsInWebContent</key><false/>
        <key>NSExceptionDomains</key><dict><key>example.com</key><dict><key>NSIncludesSubdomains</key><true/>
        </dict><key>a.example.com</key><string/></dict>
        """,
    ]

    @Test("every message that states a host's fate quotes --explain's cell for it", arguments: plists)
    func agree(_ body: String) throws {
        let document = try PlistDocument.parse(data: PlistFixtures.infoPlist(body), file: "Info.plist")
        #expect(Self.check(document) >= 1)
        #expect(Self.check(document, options: .init(deploymentTarget: "15.0")) >= 1)
    }

    @Test("the issue's case: the skipped host gets what NSAllowsArbitraryLoads gives, not default ATS")
    func issueCase() throws {
        let findings = try PlistFixtures.lint(Self.plists[0], options: .init(deploymentTarget: "17.0"))
        let message = try #require(findings.first { $0.rule == PlistRuleID.valueWrongType }).message
        #expect(message.contains("NSAllowsArbitraryLoads = YES turns ATS off"))
        #expect(!message.contains("default ATS"))
    }
}
