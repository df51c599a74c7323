import Foundation
import TLSModel
import Testing

@testable import ATSPolicy

/// The oldest release comes from the iOS keys, never from an iOS app's Mac Catalyst minimum (issue 32).
@Suite("LowestOS")
struct LowestOSTests {
    static func document(_ keys: String) throws -> PlistDocument {
        try PlistDocument.parse(data: PlistFixtures.xml("<dict>\n\(keys)\n</dict>"), file: "Info.plist")
    }

    struct Case: Sendable, CustomStringConvertible {
        var label: String
        var keys: String
        var deploymentTarget: String?
        var settings: [String: String] = [:]
        var version: String?
        var source: LowestOS.Source?
        var description: String { label }
    }

    static let cases: [Case] = [
        Case(
            label: "an iOS app with a Catalyst LSMinimumSystemVersion and nothing else: not known",
            keys: "<key>LSRequiresIPhoneOS</key><true/><key>LSMinimumSystemVersion</key><string>14</string>",
            version: nil, source: nil),
        Case(
            label: "the same app with its deployment target given",
            keys: "<key>LSRequiresIPhoneOS</key><true/><key>LSMinimumSystemVersion</key><string>14</string>",
            deploymentTarget: "15.6", version: "15.6", source: .deploymentTarget),
        Case(
            label: "the same app with IPHONEOS_DEPLOYMENT_TARGET from an xcconfig",
            keys: "<key>UIDeviceFamily</key><array><integer>1</integer></array>"
                + "<key>LSMinimumSystemVersion</key><string>14</string>",
            settings: ["IPHONEOS_DEPLOYMENT_TARGET": "16.0"], version: "16.0", source: .iPhoneOSDeploymentTarget),
        Case(
            label: "MinimumOSVersion decides before the build setting",
            keys: "<key>MinimumOSVersion</key><string>15.0</string>",
            settings: ["IPHONEOS_DEPLOYMENT_TARGET": "16.0"], version: "15.0", source: .minimumOSVersion),
        Case(
            label: "a macOS app's LSMinimumSystemVersion maps to the iOS release with the same rules",
            keys: "<key>LSMinimumSystemVersion</key><string>14.0</string>", version: "17.0",
            source: .lsMinimumSystemVersion),
        Case(
            label: "a macOS app's MACOSX_DEPLOYMENT_TARGET when the plist refers to it",
            keys: "<key>LSMinimumSystemVersion</key><string>$(MACOSX_DEPLOYMENT_TARGET)</string>",
            settings: ["MACOSX_DEPLOYMENT_TARGET": "13.0"], version: "16.0", source: .macOSDeploymentTarget),
    ]

    @Test("which key decides the oldest release", arguments: cases)
    func decides(_ c: Case) throws {
        let found = LowestOS.of(
            try Self.document(c.keys), deploymentTarget: c.deploymentTarget, settings: BuildSettings(c.settings))
        #expect(found?.version.description == c.version)
        #expect(found?.source == c.source)
    }

    @Test("the lint judges an iOS app with a Catalyst minimum for the iOS eras, and says which key decided")
    func lintIgnoresCatalyst() throws {
        // 10.0.1.2 is an IP key: a warning when the app supports releases before iOS 17, a note from 17 on.
        let keys = """
            <key>LSRequiresIPhoneOS</key><true/>
            <key>LSMinimumSystemVersion</key><string>14</string>
            <key>NSAppTransportSecurity</key><dict><key>NSExceptionDomains</key><dict>
            <key>10.0.1.2</key><dict/></dict></dict>
            """
        let document = try Self.document(keys)
        let findings = PlistLinter.lint(document, options: .init(deploymentTarget: "15.6"))
        let ip = try #require(findings.first { $0.rule == PlistRuleID.domainIPAddress })
        #expect(ip.severity == .warning)
        #expect(ip.message.contains("15.6 (--deployment-target)"))
        let catalyst = try #require(findings.first { $0.rule == PlistRuleID.osCatalystMinimum })
        #expect(catalyst.message.contains("iOS 15.6 (--deployment-target)"))
        // Without the deployment target the Catalyst key is still not taken for iOS 17.
        let unknown = PlistLinter.lint(document).first { $0.rule == PlistRuleID.osCatalystMinimum }
        #expect(unknown?.message.contains("give --deployment-target") == true)
    }
}
