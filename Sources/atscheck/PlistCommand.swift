import ArgumentParser
import ATSCheckKit
import Foundation
import Reporting

struct PlistCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "plist",
        abstract: "Validate NSAppTransportSecurity in Info.plist files (XML or binary).",
        discussion: """
            Reports unknown and misspelled keys (with "did you mean"), keys at the wrong level, wrong value types
            and what Apple then does, malformed exception-domain keys, deprecated and obsolete keys, keys that do
            nothing, every key App Review asks you to justify, and NSPinnedDomains structure and pin values.
            Each finding has a severity, a stable rule id, the key path and, in XML plists, the line.

            Exit status: 0 no error-level finding; 1 at least one; 65 a file is unreadable or malformed.
            """
    )

    @Argument(help: "Info.plist files, or files holding a bare NSAppTransportSecurity dictionary.")
    var files: [String]

    @OptionGroup var osVersion: OSVersionOption

    @Option(name: .customLong("deployment-target"), help: "Oldest OS the app supports (default: the plist's MinimumOSVersion).")
    var deploymentTarget: String?

    @Flag(name: .long, help: "Print, per host pattern and OS era, the effective policy for URLSession, WKWebView and media.")
    var explain = false

    @OptionGroup var output: OutputOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one plist file") }
    }

    func run() async throws {
        if explain { return try runExplain() }
        var findings: [Finding] = []
        var unreadable: [String] = []
        let options = PlistLinter.Options(os: osVersion.os, deploymentTarget: deploymentTarget)
        for file in files {
            do {
                let document = try PlistDocument.load(path: file)
                findings += PlistLinter.lint(document, options: options)
            } catch let error as PlistError {
                Terminal.fail(error.description)
                unreadable.append(file)
            }
        }
        let report = ScanReport(endpoints: [], findings: findings)
        try output.emit(try Render.report(report, format: output.resolvedFormat, color: output.useColor,
                                          plistFile: files.count == 1 ? files[0] : nil))
        if !unreadable.isEmpty { throw ExitCode(ExitStatus.badInput.rawValue) }
        let errors = findings.filter { $0.severity == .error }
        if !errors.isEmpty {
            Terminal.fail("\(errors.count) error-level finding(s), first: \(errors[0].file.map { "\($0):" } ?? "")\(errors[0].line.map { "\($0): " } ?? " ")\(errors[0].message)")
            throw ExitCode(ExitStatus.policyFailure.rawValue)
        }
    }

    /// `--explain`: the effective policy each plist gives, as text or JSON.
    func runExplain() throws {
        var text = ""
        var explanations: [PolicyExplanation] = []
        var unreadable = false
        for file in files {
            do {
                let document = try PlistDocument.load(path: file)
                let explanation = PolicyExplainer.explain(dictionary: document.atsDictionary ?? [:])
                explanations.append(explanation)
                if files.count > 1 { text += "== \(file)\n" }
                text += ExplainTextRenderer.render(explanation, style: TextStyle(enabled: output.useColor))
            } catch let error as PlistError {
                Terminal.fail(error.description)
                unreadable = true
            }
        }
        switch output.resolvedFormat {
        case .text: try output.emit(text)
        default:
            if files.count == 1, let only = explanations.first {
                try output.emit(try JSONRendering.render(only))
            } else {
                try output.emit(try JSONRendering.render(explanations))
            }
        }
        if unreadable { throw ExitCode(ExitStatus.badInput.rawValue) }
    }
}
