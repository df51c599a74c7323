import ATSPolicy
import Foundation
import Judging
import Reporting
import TLSModel

/// One `scan` or `audit --format json` report read for `atscheck merge`: the scan report, whether it is an audit's,
/// and an audit shard's inputs.
///
/// The file is walked with ``JSONSkim`` (structure and size, in constant memory) one top-level member and one list
/// element at a time, and each piece is decoded on its own once walked: a file of the wrong shape is refused at its
/// first wrong value (a top level that is not an object, an endpoint that is not an object, a piece of more than
/// ``maximumValuesPerPiece`` values), and `JSONDecoder` never maps more than one piece (issue 25, row 12). Unknown
/// keys are passed over, never decoded.
struct ReportFile {
    var path: String
    var report: ScanReport
    var isAudit: Bool
    var inputs: AuditShardInputs?

    /// The most JSON values (nested values and keys included) one endpoint, finding or other top-level member may
    /// hold. A real endpoint holds hundreds to a few thousand (every suite, every certificate fact, twice for
    /// the served and the verified chain); the cap bounds what the decoder maps at once to a few megabytes.
    static let maximumValuesPerPiece = 250_000

    /// The keys every report has.
    static let requiredKeys = ["endpoints", "findings", "schemaVersion", "summary", "tool"]

    /// Reads a report file (within ``InputLimits/profileBytes``).
    /// - Throws: ``InputFileError`` naming the file, and the line where the problem is.
    static func load(_ path: String) throws -> ReportFile {
        var data: Data
        do { data = try BoundedFileReader.read(path: path, limit: InputLimits.profileBytes) } catch {
            throw InputFileError(file: path, reason: error.reason)
        }
        data.append(0)  // the reader reserved a byte past the file: no copy
        return try parse(terminated: data, file: path)
    }

    /// Reads a report from its bytes.
    /// - Parameters:
    ///   - data: the file's bytes.
    ///   - file: the name errors carry.
    /// - Throws: ``InputFileError``: `FILE:LINE: not an atscheck scan or audit report (--format json): …` or
    ///   `FILE:LINE: malformed JSON: …`.
    static func parse(_ data: Data, file: String) throws -> ReportFile {
        var terminated = data
        terminated.append(0)
        return try parse(terminated: terminated, file: file)
    }

    /// ``parse(_:file:)`` of bytes followed by one NUL byte (``JSONSkim``).
    private static func parse(terminated data: Data, file: String) throws -> ReportFile {
        try data.withUnsafeBytes { buffer in
            let skim = JSONSkim(terminated: buffer)
            do { return try Reader(skim: skim, file: file).read() } catch let failure as JSONSkim.Failure {
                throw InputFileError(
                    file: file, line: skim.line(of: failure.offset), reason: "malformed JSON: \(failure.reason)")
            }
        }
    }

    /// The reading of one file's bytes: the top-level object member by member, the lists element by element.
    private struct Reader {
        let skim: JSONSkim
        let file: String
        let decoder = JSONRendering.decoder()

        func refuse(_ reason: String, at offset: Int?) -> InputFileError {
            InputFileError(
                file: file, line: offset.map(skim.line(of:)),
                reason: "not an atscheck scan or audit report (--format json): \(reason)")
        }

        func read() throws -> ReportFile {
            let root = skim.skipSpace(0)
            // The first byte tells an object: anything else is refused before the rest is read.
            guard let kind = skim.kind(at: root) else { throw refuse("the file is empty", at: nil) }
            guard kind == .object else { throw refuse("the top level is \(kind.name), not a report object", at: root) }
            var endpoints: [EndpointResult] = []
            var findings: [Finding] = []
            var isAudit = false
            var others: [String: JSONSkim.Span] = [:]
            var seen: Set<String> = []
            let end = try skim.object(at: root) { key, offset in
                guard seen.insert(key).inserted else { throw refuse("the key '\(key)' is given twice", at: offset) }
                switch key {
                case "endpoints":
                    return try elements(at: offset, named: key) { index, span in
                        endpoints.append(try decode(EndpointResult.self, span, named: "endpoints[\(index)]"))
                    }
                case "findings":
                    return try elements(at: offset, named: key) { index, span in
                        findings.append(try decode(Finding.self, span, named: "findings[\(index)]"))
                    }
                case "exceptionDebt" where skim.kind(at: offset) != .literal:
                    isAudit = true
                    return try elements(at: offset, named: key) { index, span in
                        _ = try decode(ExceptionDebt.self, span, named: "exceptionDebt[\(index)]")
                    }
                case _ where Self.singleKeys.contains(key):
                    // Decoded once every list is read (the shard's size depends on the endpoints', which come first in
                    // atscheck's output).
                    let limit =
                        key == "shard"
                        ? max(ReportFile.maximumValuesPerPiece, 16 + 2 * endpoints.count)
                        : ReportFile.maximumValuesPerPiece
                    let span = try walk(at: offset, named: key, limit: limit)
                    others[key] = span
                    return span.end
                default:
                    // Not read: passed over by its brackets and strings, never decoded.
                    return try skim.skip(at: offset)
                }
            }
            let after = skim.skipSpace(end)
            if after < skim.count { throw JSONSkim.Failure(offset: after, reason: "more data after the report") }
            for key in ReportFile.requiredKeys where !seen.contains(key) {
                throw refuse("no '\(key)' key", at: root)
            }
            var shard: ReportShard?
            if let span = others["shard"], !span.isNull {
                // Its positions are one number per endpoint: more values than that is not a shard.
                guard span.values <= 16 + 2 * endpoints.count else {
                    throw refuse(
                        "'shard' holds \(span.values) values for \(endpoints.count) endpoints (one position each)",
                        at: span.start)
                }
                let decoded = try decode(ReportShard.self, span, named: "shard", limit: span.values)
                if let problem = decoded.problem(endpoints: endpoints.count) {
                    throw refuse("'shard': \(problem)", at: span.start)
                }
                shard = decoded
            }
            var inputs: AuditShardInputs?
            if let span = others["auditShard"], !span.isNull {
                inputs = try decode(AuditShardInputs.self, span, named: "auditShard")
            }
            var report = ScanReport(
                endpoints: endpoints, findings: findings,
                tool: try decode(ToolInfo.self, others["tool"]!, named: "tool"))
            report.schemaVersion = try decode(
                Int.self, others["schemaVersion"]!, named: "schemaVersion", object: false)
            report.summary = try decode(ReportSummary.self, others["summary"]!, named: "summary")
            report.shard = shard
            if let span = others["trustData"], !span.isNull {
                report.trustData = try decode(TrustDataInfo.self, span, named: "trustData")
            }
            if let span = others["partial"], !span.isNull {
                report.partial = try decode(PartialScan.self, span, named: "partial")
            }
            return ReportFile(path: file, report: report, isAudit: isAudit, inputs: inputs)
        }

        /// The top-level keys read as one value each.
        static let singleKeys: Set<String> = [
            "schemaVersion", "summary", "tool", "shard", "auditShard", "trustData", "partial",
        ]

        /// Each element of the list at `offset`, checked and handed on one at a time; an element that is not an object
        /// is refused before it is read.
        /// - Returns: the offset past the list.
        func elements(at offset: Int, named name: String, _ body: (Int, JSONSkim.Span) throws -> Void) throws -> Int {
            guard let kind = skim.kind(at: offset), kind == .array else {
                throw refuse("'\(name)' is \(skim.kind(at: offset)?.name ?? "missing"), not a list", at: offset)
            }
            return try skim.array(at: offset) { index, element in
                if let kind = skim.kind(at: element), kind != .object {
                    throw refuse("'\(name)[\(index)]' is \(kind.name), not an object", at: element)
                }
                let span = try walk(at: element, named: "\(name)[\(index)]", limit: ReportFile.maximumValuesPerPiece)
                try body(index, span)
                return span.end
            }
        }

        /// The value at `offset`, walked no further than `limit` values.
        func walk(at offset: Int, named name: String, limit: Int) throws -> JSONSkim.Span {
            let span: JSONSkim.Span
            do { span = try skim.value(at: offset, limit: limit) } catch {
                guard error.reason == JSONSkim.Failure.tooManyValues else { throw error }
                throw refuse("'\(name)' holds more than \(limit) JSON values", at: error.offset)
            }
            return span
        }

        /// One piece, decoded on its own once its shape and size are checked.
        func decode<T: Decodable>(
            _ type: T.Type, _ span: JSONSkim.Span, named name: String, object: Bool = true,
            limit: Int = ReportFile.maximumValuesPerPiece
        ) throws -> T {
            if object && span.kind != .object {
                throw refuse("'\(name)' is \(span.kind.name), not an object", at: span.start)
            }
            guard span.values <= limit else {
                throw refuse("'\(name)' holds more than \(limit) JSON values", at: span.start)
            }
            let piece = Data(UnsafeBufferPointer(start: skim.base + span.start, count: span.end - span.start))
            do { return try decoder.decode(T.self, from: piece) } catch {
                throw refuse("'\(name)': \(ProfileFile.describe(error))", at: span.start)
            }
        }
    }
}

extension ReportShard {
    /// What makes a shard record impossible: I not in 1…N, not one position per endpoint, a position outside the
    /// list or given twice; nil when it is possible.
    func problem(endpoints: Int) -> String? {
        guard count >= 1, (1...count).contains(index) else {
            return "shard \(index)/\(count) is not a shard (I must be in 1…N)"
        }
        guard positions.count == endpoints else { return "\(endpoints) endpoints but \(positions.count) positions" }
        guard total >= 0, positions.allSatisfy({ (0..<total).contains($0) }) else {
            return "a position outside the list of \(total) endpoints"
        }
        guard Set(positions).count == positions.count else { return "a position given twice" }
        return nil
    }
}
