import ATSPolicy
import Foundation
import Reporting
import TLSModel

/// `atscheck merge`: the reports of `scan --shard I/N --format json` runs, combined into the report one run
/// over the whole list gives.
///
/// Endpoints come back in the single run's order (each shard report says where its endpoints stand in the whole
/// list, ``ReportShard/positions``); reports without shard information (whole runs) are appended in the order
/// given. Findings keep their first occurrence (the list's own findings are in every shard), in the order of
/// the files; the summary is recomputed.
public enum ReportMerge {
    /// Merges reports.
    /// - Throws: ``MergeError`` when the reports do not belong together (different shard counts, a shard given
    ///   twice or missing, different tools or schema versions).
    public static func merge(_ reports: [ScanReport]) throws -> ScanReport {
        guard let first = reports.first else { throw MergeError("no reports to merge") }
        try checkShards(reports)
        guard reports.allSatisfy({ $0.schemaVersion == first.schemaVersion && $0.tool == first.tool }) else {
            throw MergeError("the reports come from different atscheck versions or schemas")
        }
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
        return merged
    }

    /// Checks that shard reports belong together: one split, every shard once, positions for every endpoint.
    /// Reports without shard information pass (whole runs are appended as given).
    /// - Throws: ``MergeError``.
    static func checkShards(_ reports: [ScanReport]) throws {
        let shards = reports.compactMap(\.shard)
        if !shards.isEmpty {
            guard shards.count == reports.count else { throw MergeError("some reports are shards and some are not") }
            let count = shards[0].count
            guard shards.allSatisfy({ $0.count == count && $0.total == shards[0].total }) else {
                throw MergeError("the reports come from different splits (shard counts or list sizes differ)")
            }
            let indices = shards.map(\.index)
            if Set(indices).count != indices.count { throw MergeError("a shard is given twice") }
            let missing = (1...count).filter { !indices.contains($0) }
            if !missing.isEmpty {
                throw MergeError(
                    "shard\(missing.count == 1 ? "" : "s") "
                        + "\(missing.map { "\($0)/\(count)" }.joined(separator: ", ")) missing"
                )
            }
            for (report, shard) in zip(reports, shards) where shard.positions.count != report.endpoints.count {
                throw MergeError(
                    "shard \(shard.index)/\(shard.count) has \(report.endpoints.count) endpoints but "
                        + "\(shard.positions.count) positions"
                )
            }
        }
    }

    /// Reads and merges report files (`scan --format json` output).
    /// - Throws: ``InputFileError`` when a file cannot be read or is not a scan report; ``MergeError``.
    public static func merge(paths: [String]) throws -> ScanReport {
        try merge(paths.map(load))
    }

    /// Reads one `scan --format json` report.
    static func load(_ path: String) throws -> ScanReport {
        let data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.profileBytes) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        do {
            return try JSONRendering.decoder().decode(ScanReport.self, from: data)
        } catch {
            throw InputFileError(file: path, reason: "not an atscheck scan report (scan --format json)")
        }
    }
}

/// Reports that cannot be merged into one.
public struct MergeError: Error, CustomStringConvertible, Equatable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
