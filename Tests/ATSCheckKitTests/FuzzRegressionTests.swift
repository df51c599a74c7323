import ATSCheckKit
import ATSPolicy
import AppBundle
import Foundation
import Judging
import Reporting
import TLSModel
import TLSTestSupport
import Testing

@testable import ATSCheckKit

/// Replays the fuzzers' seeds (`Fuzz/corpus/`) and every committed crash (`Tests/Fixtures/fuzz-regressions/`)
/// through the code the libFuzzer targets drive, without the sanitizer: each input is read, or refused with the
/// input contract's message (`FILE:LINE: reason` with LINE ≥ 1, or `FILE: reason`).
@Suite("Fuzz seeds and regressions replay")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func files(_ target: String, seedsOnly: Bool = false) -> [URL] {
        var folders = [root.appendingPathComponent("Fuzz/corpus/\(target)")]
        if !seedsOnly { folders.append(root.appendingPathComponent("Tests/Fixtures/fuzz-regressions/\(target)")) }
        return folders.flatMap {
            (try? FileManager.default.contentsOfDirectory(at: $0, includingPropertiesForKeys: nil)) ?? []
        }
        .sorted { $0.path < $1.path }
    }

    /// `FILE:LINE: reason` (LINE ≥ 1) or `FILE: reason`.
    static func followsContract(_ message: String, file: String) -> Bool {
        guard message.hasPrefix(file + ":") else { return false }
        let rest = message.dropFirst(file.count + 1)
        if rest.hasPrefix(" ") { return rest.count > 1 }
        let digits = rest.prefix { $0.isNumber }
        guard let line = Int(digits), line >= 1 else { return false }
        return rest.dropFirst(digits.count).hasPrefix(": ")
    }

    @Test("the seed corpora exist")
    func seedsExist() {
        for target in ["FuzzPlist", "FuzzEndpoints", "FuzzBaseline", "FuzzProfiles", "FuzzCertificate", "FuzzMerge"] {
            #expect(!Self.files(target, seedsOnly: true).isEmpty, "no seeds for \(target)")
        }
    }

    @Test("plists: read and linted, or refused with FILE[:LINE]: reason")
    func plists() throws {
        for url in Self.files("FuzzPlist") {
            do {
                let document = try PlistDocument.parse(data: try Data(contentsOf: url), file: url.lastPathComponent)
                _ = ScanTextRenderer(catalogue: .atscheck).render(
                    ScanReport(endpoints: [], findings: PlistLinter.lint(document)))
            } catch let error as PlistError {
                #expect(Self.followsContract(error.description, file: url.lastPathComponent), "\(error)")
            }
        }
    }

    @Test("endpoint lists: every format parses or is refused with FILE[:LINE]: reason")
    func endpointLists() throws {
        for url in Self.files("FuzzEndpoints") {
            let seeded = url.path.contains("/Fuzz/corpus/")
            do {
                let list = try EndpointList.load(path: url.path)
                if seeded { #expect(!list.entries.isEmpty, "\(url.lastPathComponent)") }
            } catch let error as InputFileError {
                #expect(!seeded, "a seed is refused: \(error)")
                #expect(Self.followsContract(error.description, file: url.path), "\(error)")
            }
            guard let text = String(data: try Data(contentsOf: url), encoding: .utf8) else { continue }
            for format in [EndpointList.Format.text, .yaml, .json] {
                do { _ = try EndpointList.parse(text: text, file: "x", format: format) } catch let error
                    as InputFileError
                {
                    #expect(Self.followsContract(error.description, file: "x"), "\(error)")
                }
            }
        }
    }

    @Test("baselines: parse or are refused with FILE[:LINE]: reason")
    func baselines() throws {
        for url in Self.files("FuzzBaseline") {
            do { _ = try Baseline.load(path: url.path) } catch let error as InputFileError {
                #expect(!url.path.contains("/Fuzz/corpus/"), "a seed is refused: \(error)")
                #expect(Self.followsContract(error.description, file: url.path), "\(error)")
            }
        }
    }

    @Test("saved profiles decode (seeds) and render without trapping")
    func profiles() throws {
        for url in Self.files("FuzzProfiles") {
            let data = try Data(contentsOf: url)
            var endpoints = (try? JSONRendering.decoder().decode([ServerProfile].self, from: data)).map {
                $0.map { EndpointResult(profile: $0) }
            }
            if endpoints == nil {
                endpoints = (try? JSONRendering.decoder().decode(ScanReport.self, from: data))?.endpoints
            }
            if url.path.contains("/Fuzz/corpus/") { #expect(endpoints?.isEmpty == false, "\(url.lastPathComponent)") }
            let report = ScanReport(endpoints: endpoints ?? [])
            _ =
                ScanTextRenderer(catalogue: .atscheck).render(report)
                + MarkdownRenderer.render(report, catalogue: .atscheck)
                + JUnitRenderer.render(report, catalogue: .atscheck)
        }
    }

    /// The FuzzZip and FuzzMachO seeds, written by `Fuzz/make-seeds.py` (as `make fuzz` does) into a fresh folder.
    static func generatedSeeds() throws -> URL {
        let folder = URL(fileURLWithPath: TestScratch.file("atscheck-seeds"))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", root.appendingPathComponent("Fuzz/make-seeds.py").path, folder.path]
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        return folder
    }

    @Test("zips (FuzzZip): the generated seeds and every regression open, or are refused with one line FILE: reason")
    func zips() throws {
        let seeds = try Self.generatedSeeds()
        defer { try? FileManager.default.removeItem(at: seeds) }
        let generated = try FileManager.default.contentsOfDirectory(
            at: seeds.appendingPathComponent("FuzzZip"), includingPropertiesForKeys: nil)
        #expect(generated.count == 4)
        var opened: [String] = []
        for url in generated + Self.files("FuzzZip") {
            do {
                let harvest = EndpointHarvester.harvest(try AppBundle.open(path: url.path))
                #expect(harvest.endpoints.contains { $0.target == "https://api.acme.com" }, "\(url.lastPathComponent)")
                opened.append(url.lastPathComponent)
            } catch let error as AppBundleError {
                #expect(error.description.hasPrefix(url.path + ": ") && !error.description.contains("\n"), "\(error)")
            }
        }
        // The seeds: a stored, a deflated and a ZIP64 archive are read; the looping link is refused.
        #expect(Set(opened).isSuperset(of: ["stored-link.ipa", "deflated-link.ipa", "zip64.ipa"]))
        #expect(!opened.contains("loop.ipa"))
    }

    @Test("executables (FuzzMachO): the generated seeds and every regression are harvested, each byte at most once")
    func executables() throws {
        let seeds = try Self.generatedSeeds()
        defer { try? FileManager.default.removeItem(at: seeds) }
        let generated = try FileManager.default.contentsOfDirectory(
            at: seeds.appendingPathComponent("FuzzMachO"), includingPropertiesForKeys: nil)
        #expect(generated.count == 4)
        for url in generated + Self.files("FuzzMachO") {
            let bytes = [UInt8](try Data(contentsOf: url))
            let found = EndpointHarvester.harvest(bytes: bytes, file: url.lastPathComponent, isExecutable: true)
            if url.lastPathComponent == "one-section.macho" || url.lastPathComponent == "overlapping.macho" {
                // Overlapping sections are scanned once: each URL once, as in the plain file.
                #expect(found.filter { $0.target == "https://api.acme.com" }.count == 1, "\(url.lastPathComponent)")
            }
            if url.lastPathComponent == "repeated.macho" { #expect(found.count == 50) }
        }
    }

    @Test("merge inputs: seeds read and merge; every input is read or refused with FILE[:LINE]: reason")
    func mergeInputs() throws {
        var split: [ScanReport] = []
        for url in Self.files("FuzzMerge") {
            let seeded = url.path.contains("/Fuzz/corpus/")
            do {
                let file = try ReportFile.load(url.path)
                let merged = try? ReportMerge.merge([file.report], names: [url.lastPathComponent])
                if seeded && (file.report.shard?.count ?? 1) == 1 {
                    #expect(merged?.endpoints.isEmpty == false, "\(url.lastPathComponent)")
                }
                if seeded && file.report.shard?.count == 2 { split.append(file.report) }
                // The same report twice is refused (a shard given twice, or one whole run twice).
                if file.report.shard != nil || !file.report.endpoints.isEmpty {
                    #expect(throws: MergeError.self) {
                        try ReportMerge.merge([file.report, file.report], names: ["a.json", "b.json"])
                    }
                }
            } catch let error as InputFileError {
                #expect(!seeded, "a seed is refused: \(error)")
                #expect(Self.followsContract(error.description, file: url.path), "\(error)")
            }
        }
        #expect(split.count == 2)
        #expect(try ReportMerge.merge(split).endpoints.count == split.map(\.endpoints.count).reduce(0, +))
    }
}
