import ATSPolicy
import Foundation
import Judging
import Reporting
import TLSModel

/// `atscheck merge`: the reports of `scan --shard I/N --format json` runs, combined into the report one run
/// over the whole list gives.
///
/// Endpoints come back in the single run's order (each shard report says where its endpoints stand in the whole
/// list, ``ReportShard/positions``); reports without shard information (whole runs) are appended in the order
/// given. Findings keep their first occurrence (the list's own findings are in every shard), in the order of
/// the files; the summary is recomputed.
package enum ReportMerge {
    /// Merges reports.
    /// - Parameters:
    ///   - reports: the reports, in the order given.
    ///   - names: the name of each report in messages (its file); `report 1`, `report 2`, … when nil (or not one
    ///     name per report).
    /// - Throws: ``MergeError`` naming the reports that do not belong together: different atscheck versions or
    ///   schemas, shards mixed with whole reports, different splits, a shard given twice or missing, an endpoint
    ///   reported by two shards, or the same whole report given twice.
    package static func merge(_ reports: [ScanReport], names: [String]? = nil) throws -> ScanReport {
        let names = names.flatMap { $0.count == reports.count ? $0 : nil } ?? reports.indices.map { "report \($0 + 1)" }
        guard let first = reports.first else { throw MergeError("no reports to merge") }
        try checkVersions(reports, names: names)
        try checkShards(reports, names: names)
        try checkWholeDuplicates(reports, names: names)
        // (position, file, index) orders every endpoint as the single run did; ties cannot occur across files.
        var keyed: [(position: Int, file: Int, index: Int, endpoint: EndpointResult)] = []
        for (file, report) in reports.enumerated() {
            for (index, endpoint) in report.endpoints.enumerated() {
                keyed.append((report.shard?.positions[index] ?? index, file, index, endpoint))
            }
        }
        keyed.sort { ($0.position, $0.file, $0.index) < ($1.position, $1.file, $1.index) }
        var seen: Set<Finding> = []
        let findings = reports.flatMap(\.findings).filter { seen.insert($0).inserted }
        var merged = ScanReport(endpoints: keyed.map(\.endpoint), findings: findings, tool: first.tool)
        merged.schemaVersion = first.schemaVersion
        merged.trustData = first.trustData  // the shards of one run judged with the same data
        // A shard that was interrupted leaves the merged report partial: its endpoints not scanned are in it.
        let partials = reports.compactMap(\.partial)
        if !partials.isEmpty {
            merged.partial = PartialScan(
                signal: partials.compactMap(\.signal).first, notScanned: partials.map(\.notScanned).reduce(0, +),
                graceSeconds: partials.map(\.graceSeconds).max() ?? 0)
        }
        return merged
    }

    /// Checks that every report was written by the same atscheck, in the same schema.
    /// - Throws: ``MergeError`` naming the first report that differs from the first one, and both versions.
    static func checkVersions(_ reports: [ScanReport], names: [String]) throws {
        guard let first = reports.first else { return }
        func version(_ report: ScanReport) -> String {
            "\(report.tool.name) \(report.tool.version), report schema \(report.schemaVersion)"
        }
        for (report, name) in zip(reports, names).dropFirst()
        where report.schemaVersion != first.schemaVersion || report.tool != first.tool {
            throw MergeError(
                "\(name) was written by \(version(report)) but \(names[0]) by \(version(first)): merge reports of one "
                    + "atscheck version")
        }
    }

    /// Checks that shard reports belong together: one split, every shard once, every endpoint of the list in one
    /// shard only. Whole reports (without shard information) pass: they are appended as given.
    /// - Throws: ``MergeError`` naming the files involved.
    static func checkShards(_ reports: [ScanReport], names: [String]) throws {
        let shards = reports.map(\.shard)
        guard let firstShard = shards.firstIndex(where: { $0 != nil }) else { return }
        let reference = shards[firstShard]!
        func split(_ shard: ReportShard) -> String {
            "shard \(shard.index)/\(shard.count) of a list of \(shard.total) endpoints"
        }
        if let whole = shards.firstIndex(where: { $0 == nil }) {
            throw MergeError(
                "\(names[firstShard]) is \(split(reference)) but \(names[whole]) is a whole report (no --shard): merge "
                    + "the shards of one split")
        }
        var byIndex: [Int: Int] = [:]
        for (file, shard) in shards.map({ $0! }).enumerated() {
            if let problem = shard.problem(endpoints: reports[file].endpoints.count) {
                throw MergeError("\(names[file]): \(problem)")
            }
            guard shard.count == reference.count && shard.total == reference.total else {
                throw MergeError(
                    "\(names[firstShard]) is \(split(reference)) but \(names[file]) is \(split(shard)): merge the shards "
                        + "of one split")
            }
            if let other = byIndex[shard.index] {
                throw MergeError(
                    names[other] == names[file]
                        ? "\(names[file]) is given twice"
                        : "\(names[other]) and \(names[file]) are both shard \(shard.index)/\(shard.count)")
            }
            byIndex[shard.index] = file
        }
        if byIndex.count < reference.count {
            // Only the first few missing indices are named: never a walk over a count the files made up.
            var missing: [String] = []
            var index = 1
            while index <= reference.count && missing.count < 5 {
                if byIndex[index] == nil { missing.append("\(index)/\(reference.count)") }
                index += 1
            }
            let missingCount = reference.count - byIndex.count
            let given = byIndex.sorted { $0.key < $1.key }.map { "\(names[$0.value]) (\($0.key)/\(reference.count))" }
            let more = missingCount > missing.count ? " and \(missingCount - missing.count) more" : ""
            throw MergeError(
                "shard\(missingCount == 1 ? "" : "s") \(missing.joined(separator: ", "))\(more) missing; given: "
                    + ExitStatus.list(given))
        }
        // Within one file positions are distinct (``ReportFile``); across files no endpoint may be reported twice.
        var owner: [Int: Int] = [:]
        for (file, shard) in shards.map({ $0! }).enumerated() {
            for position in shard.positions {
                if let other = owner.updateValue(file, forKey: position) {
                    throw MergeError(
                        "\(names[other]) and \(names[file]) both report endpoint \(position + 1) of the list")
                }
            }
        }
    }

    /// Refuses a whole report given twice: two whole reports with the same endpoints (every fact, the scan time to the
    /// second included) and the same findings are one run, whatever their files' names or formatting.
    /// - Throws: ``MergeError`` naming both files.
    static func checkWholeDuplicates(_ reports: [ScanReport], names: [String]) throws {
        let whole = reports.indices.filter { reports[$0].shard == nil && !reports[$0].endpoints.isEmpty }
        for (offset, first) in whole.enumerated() {
            for second in whole[(offset + 1)...]
            where reports[first].endpoints.count == reports[second].endpoints.count
                && reports[first].endpoints == reports[second].endpoints
                && reports[first].findings == reports[second].findings
            {
                throw MergeError(
                    names[first] == names[second]
                        ? "\(names[first]) is given twice"
                        : "\(names[first]) and \(names[second]) are the same report (the same endpoints, scanned at "
                            + "the same time): give each run once")
            }
        }
    }

    /// Reads and merges report files (`scan --format json` output).
    /// - Throws: ``InputFileError`` when a file cannot be read or is not a scan report; ``MergeError``.
    package static func merge(paths: [String]) throws -> ScanReport {
        try merge(paths.map { try ReportFile.load($0).report }, names: paths)
    }
}

/// Reports that cannot be merged into one.
package struct MergeError: Error, CustomStringConvertible, Equatable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
