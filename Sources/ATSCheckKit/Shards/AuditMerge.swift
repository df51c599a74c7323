import ATSPolicy
import Foundation
import Judging
import Reporting
import TLSModel

/// What `atscheck merge` makes of its files: a scan report, or an audit rebuilt from audit shards.
package enum MergedReport: Sendable {
    /// The merge of `scan --shard I/N --format json` reports (``ReportMerge``).
    case scan(ScanReport)
    /// The audit a single run over the whole list gives, rebuilt from `audit --shard I/N --format json` reports
    /// (``AuditMerge``), with the inputs it was judged under.
    case audit(AuditResult, inputs: AuditShardInputs)
}

/// `atscheck merge` of audit shards: the exception debt (missing, unneeded, broader, unused exceptions) needs the
/// whole list, so the merge does not combine the shards' findings. It takes every endpoint's profile from the
/// shard that scanned it, reads the audit's inputs again (``AuditShardInputs``: the plist, the list, the baseline,
/// the pin material) and judges the whole list with the steps a single run takes after its scan. The report,
/// exit status and every rendering are then the single run's (timings aside).
package enum AuditMerge {
    /// Reads report files, scan or audit, and merges them.
    /// - Throws: ``InputFileError`` when a file is unreadable or not an atscheck JSON report; ``MergeError`` when
    ///   the reports do not belong together (scan and audit mixed, shards missing or doubled, different audits,
    ///   an input file changed since the shards ran).
    package static func merge(paths: [String]) throws -> MergedReport {
        let files = try paths.map(ReportFile.load)
        let audits = zip(paths, files).filter { $0.1.isAudit }.map(\.0)
        if audits.isEmpty { return .scan(try ReportMerge.merge(files.map(\.report), names: paths)) }
        if audits.count != files.count {
            let scan = zip(paths, files).first { !$0.1.isAudit }!.0
            throw MergeError(
                "\(audits[0]) is an audit report but \(scan) is a scan report: merge the shards of one command")
        }
        return try merge(files.map { ($0.report, $0.inputs) }, paths: paths)
    }

    /// Rebuilds the audit from shard reports and their inputs.
    static func merge(_ shards: [(report: ScanReport, inputs: AuditShardInputs?)], paths: [String]) throws
        -> MergedReport
    {
        for (path, shard) in zip(paths, shards) where shard.inputs == nil || shard.report.shard == nil {
            throw MergeError(
                "\(path) is a whole audit, not a shard: merge the outputs of audit --shard I/N --format json")
        }
        try ReportMerge.checkVersions(shards.map(\.report), names: paths)
        try ReportMerge.checkShards(shards.map(\.report), names: paths)
        let inputs = shards[0].inputs!
        if let other = shards.firstIndex(where: { !$0.inputs!.sameAudit(as: inputs) }) {
            throw MergeError(
                "\(paths[0]) and \(paths[other]) come from different audits (input files or options differ): merge "
                    + "the shards of one audit")
        }
        for (path, fingerprint) in inputs.fingerprints.sorted(by: { $0.key < $1.key })
        where try AuditShardInputs.fingerprint(of: path) != fingerprint {
            throw MergeError("\(path) changed since the shards ran: merge with the files they audited")
        }
        let now = shards.map(\.inputs!.ranAt).min()!
        let settings = inputs.settings
        let loaded = try AuditInputs.load(
            plistPath: inputs.plist, endpointsPath: inputs.endpoints, baselinePath: inputs.baseline, settings: settings,
            os: inputs.os, now: now)
        let total = shards[0].report.shard!.total
        guard loaded.list.entries.count == total else {
            throw MergeError(
                "\(inputs.endpoints) has \(loaded.list.entries.count) endpoints but the shards split \(total)")
        }
        var profiles = [ServerProfile?](repeating: nil, count: total)
        // checkShards has placed every position in 0..<total and in one shard only.
        for shard in shards {
            for (position, endpoint) in zip(shard.report.shard!.positions, shard.report.endpoints) {
                profiles[position] = endpoint.profile
            }
        }
        if let missing = profiles.firstIndex(where: { $0 == nil }) {
            throw MergeError(
                "no shard reports endpoint \(missing + 1) of \(inputs.endpoints) (given: \(ExitStatus.list(paths)))")
        }
        var result = loaded.finish(
            profiles: profiles.map { $0! }, settings: settings, for: ATSClient(os: inputs.os, kind: inputs.client),
            now: now)
        result.report.trustData = shards[0].report.trustData  // the shards of one run judged with the same data
        return .audit(result, inputs: inputs)
    }
}
