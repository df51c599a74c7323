import ATSCheckKit
import Foundation
import Judging
import Reporting
import TLSModel
import Testing

/// One ``ReportDocument`` per command, filled as the command fills it, from hand-built values (no network).
enum DocumentFixtures {
    /// A command's document and the formats the command accepts for it.
    struct Case: CustomTestStringConvertible, Sendable {
        var command: String
        var document: any ReportDocument
        var formats: [OutputFormat]
        var testDescription: String { command }
    }

    static let everyFormat = OutputFormat.allCases
    static let rulesFormats: [OutputFormat] = [.text, .json, .markdown]

    static var all: [Case] {
        [
            Case(command: "scan", document: ScanDocument(report: ReportFixtures.report), formats: everyFormat),
            Case(command: "scan --shard", document: ScanDocument(report: shardReport), formats: everyFormat),
            Case(
                command: "scan (groups)",
                document: ScanDocument(
                    report: ReportFixtures.groupsReport, sources: ReportSources(endpointsFile: "endpoints.txt")),
                formats: everyFormat),
            Case(
                command: "scan (Apple clients)",
                document: ScanDocument(
                    report: ReportFixtures.simulatedErasReport, sources: ReportSources(endpointsFile: "endpoints.txt")),
                formats: everyFormat),
            Case(command: "plist", document: plist, formats: everyFormat),
            Case(command: "audit", document: audit(defaultPolicy: false), formats: everyFormat),
            Case(command: "audit (no --plist)", document: audit(defaultPolicy: true), formats: everyFormat),
            Case(command: "app --offline", document: app(live: false), formats: everyFormat),
            Case(command: "app", document: app(live: true), formats: everyFormat),
            Case(command: "diagnose", document: diagnose, formats: everyFormat),
            Case(command: "cert", document: CertDocument(report: ReportFixtures.report), formats: everyFormat),
            Case(
                command: "cert --pins", document: CertDocument(report: ReportFixtures.report, pinCheck: pinsReport),
                formats: everyFormat),
            Case(command: "pins check", document: PinCheckDocument(report: pinsReport), formats: everyFormat),
            Case(command: "pins extract", document: PinExtractDocument(report: pinExtract), formats: [.text, .json]),
            Case(command: "plist --explain", document: explain(count: 1), formats: [.text, .json]),
            Case(command: "plist --explain (2 files)", document: explain(count: 2), formats: [.text, .json]),
            Case(
                command: "rules", document: RuleCatalogueDocument(rules: RuleCatalogue.atscheck.all),
                formats: rulesFormats),
        ]
    }

    static var shardReport: ScanReport {
        var report = ReportFixtures.report
        report.shard = ReportShard(index: 2, count: 3, total: 14, selected: 5, positions: [1, 4, 7, 10, 13])
        return report
    }

    static var plist: ScanDocument {
        ScanDocument(
            report: ScanReport(endpoints: [], findings: ReportFixtures.report.findings),
            sources: ReportSources(plistFile: "Info.plist"))
    }

    static func audit(defaultPolicy: Bool) -> AuditDocument {
        let debt = ExceptionDebt(
            kind: .missing, rule: RuleID.Audit.exceptionMissing, domain: "legacy.example.com",
            keyPath: "NSAppTransportSecurity.NSExceptionDomains.legacy.example.com",
            endpoints: ["legacy.example.com:443"],
            suggested: .dict(["NSExceptionRequiresForwardSecrecy": .bool(false)]), plist: "<key>x</key>",
            message: "legacy.example.com fails ATS")
        let pin = AuditPinCheck(
            origin: .pinnedDomains, endpoint: "api.example.com:443", library: PinLibrary(rawValue: "nspinneddomains"),
            domains: ["api.example.com"], pinFiles: ["Info.plist"],
            source: SourceLocation(file: "Info.plist", line: 40),
            result: pinsReport.results[1])
        let section = AuditSection(
            exceptionDebt: [debt], pins: [pin], judgedUnderDefaultPolicy: defaultPolicy,
            shardInputs: defaultPolicy ? ["endpoints": "endpoints.txt"] : nil)
        return AuditDocument(
            report: GoldenFileTests.auditReport, audit: section,
            sources: ReportSources(plistFile: defaultPolicy ? nil : "Info.plist", endpointsFile: "endpoints.txt"))
    }

    /// A bundle with a framework and a static library, a readable and an unreadable certificate, TrustKit and
    /// NSPinnedDomains, and hostile strings (terminal controls) where a bundle could put them.
    static var appFacts: AppSection.Facts {
        AppSection.Facts(
            input: "Demo.ipa", container: "ipa", infoPlist: "Demo.ipa/Payload/Demo.app/Info.plist",
            bundleIdentifier: "com.example.demo\u{1B}[31m", version: "2.1", build: nil,
            minimumOS: AppSection.MinimumOS(platform: "iOS", key: "MinimumOSVersion", value: "12.0"),
            eras: ["12.0", "13.0", "26.4"],
            libraries: [
                AppSection.Library(
                    name: "AFNetworking", version: "4.0.1", linkage: "framework",
                    path: "Demo.ipa/Payload/Demo.app/Frameworks/AFNetworking.framework", marker: nil,
                    loadsPinsFromOwnBundle: false),
                AppSection.Library(
                    name: "TrustKit", version: nil, linkage: "static", path: nil, marker: "TSKPinningValidator",
                    loadsPinsFromOwnBundle: false),
            ],
            certificates: [
                AppSection.Certificate(
                    file: "Demo.ipa/Payload/Demo.app/demo-ca.cer", encoding: "der", loadedBy: ["AFNetworking"],
                    subject: "CN=Demo CA", issuer: "CN=Demo CA", notAfter: ReportFixtures.date, sha256: "ab",
                    spkiSHA256: "c3BraQ=="),
                AppSection.Certificate(
                    file: "Demo.ipa/Payload/Demo.app/broken.cer", encoding: "unknown", loadedBy: [], subject: nil,
                    issuer: nil, notAfter: nil, sha256: nil, spkiSHA256: nil),
            ],
            trustKit: PinSet(domains: ["pay.example.com": DomainPins(pins: ["a", "b"])]),
            pinnedDomains: PinnedDomainsConfiguration(domains: ["api.example.com": PinnedDomainEntry()]),
            harvestedEndpoints: [
                AppSection.Endpoint(
                    target: "api.example.com:443", kind: "https", host: "api.example.com", port: 443,
                    example: "https://api.example.com/v1", sources: ["Demo", "main.jsbundle", "Info.plist", "a.json"]),
                AppSection.Endpoint(
                    target: "http://cdn.example.com\u{7}", kind: "http", host: "cdn.example.com", port: nil,
                    example: "http://cdn.example.com/x", sources: ["Demo"]),
            ])
    }

    static var appLive: AppSection.Live {
        let eras = { (verdict: ATSEvaluation.Verdict) in
            ["12", "13", "26.4"].map { AppEndpointEras.EraVerdict(os: $0, verdict: verdict, reason: nil) }
        }
        return AppSection.Live(
            endpointSource: "harvested", eras: ["12", "13", "26.4"],
            endpoints: [
                AppEndpointEras(
                    endpoint: "api.example.com:443", source: SourceLocation(file: "Demo"), status: .completed,
                    eras: eras(.pass), summary: "passes on iOS 12+"),
                AppEndpointEras(
                    endpoint: "legacy.example.com:443", source: SourceLocation(file: "Demo"), status: .completed,
                    eras: eras(.fail), summary: "fails on iOS 12+"),
                AppEndpointEras(
                    endpoint: "down.example.com:443", source: SourceLocation(file: "Demo"), status: .unreachable,
                    eras: [], summary: "not judged (unreachable)"),
            ],
            exceptionDebt: [],
            pins: [
                AppPinCheck(
                    origin: .bundledCertificates, endpoint: "api.example.com:443",
                    library: PinLibrary(rawValue: "afnetworking"),
                    mode: "certificate", assumed: true, pinFiles: ["demo-ca.cer"], note: "pins from the main bundle",
                    result: pinsReport.results[0]),
                AppPinCheck(
                    origin: .trustKit, endpoint: "down.example.com:443", library: PinLibrary(rawValue: "trustkit"),
                    mode: nil, assumed: false,
                    pinFiles: ["Info.plist"], note: nil, result: pinsReport.results[1]),
            ])
    }

    static func app(live: Bool) -> AppDocument {
        let findings = [
            Finding(
                rule: RuleID.App.pinsUnreadable, severity: .error, message: "broken.cer is not a readable certificate")
        ]
        return AppDocument(
            report: ScanReport(endpoints: live ? ReportFixtures.report.endpoints : [], findings: findings),
            app: AppSection(facts: appFacts, live: live ? appLive : nil),
            sources: ReportSources(endpointsFile: live ? "endpoints.txt" : nil))
    }

    static var diagnose: DiagnosisDocument {
        let profile = ReportFixtures.profile("api.example.com", status: .timeout, error: "timed out after 5 s")
        let findings = [Finding(rule: RuleID.Trust.expirySoon, severity: .warning, message: "expires in 3 days")]
        return DiagnosisDocument(
            report: ScanReport(endpoints: [EndpointResult(profile: profile)], findings: findings),
            diagnosis: DiagnosisSection(report: DiagnosticsTextTests.report, profile: profile, findings: findings))
    }

    static var pinsReport: PinCheckReport { PinsRendererTests.report(host: "api.example.com") }

    static var pinExtract: PinExtractReport {
        let leaf = PinPathEntry(
            position: 0, role: "leaf", subject: "CN=api.example.com", issuer: "CN=CA", spkiSHA256: "bGVhZg==",
            sha256: "aa", notAfter: ReportFixtures.date, sentByServer: true)
        let pin = RecommendedPin(
            position: 1, role: "anchor", subject: "CN=CA", spkiSHA256: "Y2E=", sha256: "bb",
            notAfter: ReportFixtures.date, why: "the CA outlives the leaf")
        return PinExtractReport(
            target: "api.example.com:443", host: "api.example.com", path: [leaf], trusted: true, verifyError: nil,
            recommendation: PinRecommendation(
                host: "api.example.com", primary: pin, backup: nil, reason: "r", findings: []),
            material: PinMaterial(
                format: .json, summary: "a pin set", files: [PinMaterialFile(name: "pins.json", text: "{}\n")]),
            written: [])
    }

    static func explain(count: Int) -> ExplanationDocument {
        ExplanationDocument(
            plists: (1...count).map {
                ExplainedPlist(file: "App\($0)/Info.plist", explanation: ExplainTextTests.explanation)
            })
    }
}
