import ATSCheckKit
import ATSPolicy
import ArgumentParser
import Foundation
import Judging
import Reporting
import TLSModel

struct PlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Validate NSAppTransportSecurity in Info.plist files (XML or binary).",
        usage: "atscheck plist [<options>] <files> ...",
        discussion: """
            Reports unknown and misspelled keys (with "did you mean"), keys at the wrong level, wrong value \
            types and what Apple then does, malformed exception-domain keys, deprecated and obsolete keys, keys \
            that do nothing, every key App Review asks you to justify, and NSPinnedDomains structure and pin \
            values. Each finding has a severity, a stable rule id, the key path and, in XML plists, the line.

            --explain lists, per host pattern and OS era, the effective policy; the eras start at \
            --deployment-target, else the plist's MinimumOSVersion, else IPHONEOS_DEPLOYMENT_TARGET, else a macOS \
            app's LSMinimumSystemVersion (never an iOS app's Mac Catalyst minimum), and end at --os-version.

            Source Info.plists are read as Xcode builds them: #if/#ifdef/#include lines (INFOPLIST_PREPROCESS) are \
            preprocessed, keeping the file's line numbers; without --define, every configuration the conditions \
            allow is judged (up to 8) and a finding that holds in some only names them. $(NAME) references take \
            --build-setting and --xcconfig values; one left unresolved where ATS reads it is a finding.

            All or nothing: when any FILE is unreadable or malformed, each is named on stderr and no report is \
            written, for any file.

            Exit status: 0 no error-level finding (with --fail-on warning, no warning either); 1 at least one; \
            64 usage error; 65 a file is unreadable or malformed.
            """
    )

    @Argument(help: "Info.plist files, or files holding a bare NSAppTransportSecurity dictionary.")
    var files: [String]

    @OptionGroup var osVersion: OSVersionOption

    @Option(
        name: .customLong("deployment-target"),
        help: "Oldest OS the app supports (default: the plist's MinimumOSVersion).")
    var deploymentTarget: String?

    @Flag(
        name: .long,
        help: "Print, per host pattern and OS era, the effective policy for URLSession, WKWebView and media.")
    var explain = false

    @OptionGroup(title: "Reading the plist as Xcode builds it") var reading: PlistReadingOptions

    @OptionGroup var output: OutputOptions
    @OptionGroup var gate: GateOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one plist file") }
        if explain {
            try output.check(showing: ExplanationDocument.self, command: "plist --explain")
        } else {
            try output.check(showing: ScanDocument.self, command: "plist")
        }
        if let deploymentTarget, AppleOSVersion(anyRelease: deploymentTarget) == nil {
            throw ValidationError("--deployment-target must be a release such as 15 or 15.4")
        }
    }

    /// Every file read as Xcode builds it, or exit 65 after naming each one that is not (nothing is rendered then).
    func loadAll(_ options: PlistReadOptions) throws -> [PlistSource] {
        var sources: [PlistSource] = []
        var failed = false
        for file in files {
            do { sources.append(try PlistSource.load(path: file, options: options)) } catch let error as PlistError {
                Terminal.fail(error.description)
                failed = true
            }
        }
        if failed { throw ExitCode(ExitStatus.badInput.rawValue) }
        return sources
    }

    func run() async throws {
        let options = try await Terminal.exitingOnFileErrors { try reading.readOptions() }
        let plists = try loadAll(options)
        if explain { return try runExplain(plists, settings: options.buildSettings) }
        let lintOptions = PlistLinter.Options(
            os: osVersion.os, deploymentTarget: deploymentTarget, settings: options.buildSettings)
        let findings = plists.flatMap { PlistLinter.lint($0, options: lintOptions) }
        let report = ScanReport(endpoints: [], findings: findings)
        let sources = ReportSources(plistFile: files.count == 1 ? files[0] : nil)
        try output.emit(ScanDocument(report: report, sources: sources))
        let errors = findings.filter { $0.severity == .error }
        let reason = errors.first.map { "\(errors.count) error-level finding(s), first: \($0.reference)" }
        try gate.finish(errors.isEmpty ? .success : .policyFailure, reason: reason, findings: findings)
    }

    /// `--explain`: the effective policy each plist gives (each build configuration of a preprocessed one), as text
    /// or JSON.
    func runExplain(_ sources: [PlistSource], settings: BuildSettings) throws {
        let explained = sources.flatMap { source in
            source.configurations.map { document in
                ExplainedPlist(
                    file: document.file,
                    explanation: PolicyExplainer.explain(
                        document: document, os: osVersion.os, deploymentTarget: deploymentTarget, settings: settings))
            }
        }
        try output.emit(ExplanationDocument(plists: explained))
    }
}
