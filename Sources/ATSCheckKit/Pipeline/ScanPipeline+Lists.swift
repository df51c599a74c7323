import ATSPolicy
import Foundation
import Judging
import TLSModel

extension ScanPipeline {
    /// Plans, probes and judges command-line targets and the entries of endpoint lists in one batch: the report
    /// of `atscheck scan TARGET… --targets FILE` and `scan -`.
    ///
    /// Targets keep the behaviour of ``scan(_:judge:progress:)`` (`--all-addresses` applies); list entries
    /// keep their own `resolve`, `sni` and `caFile` as in `audit`, and their endpoint results carry the line
    /// they came from. `http://` entries are judged without a connection. The lists' own findings (lines that
    /// are not targets) come first in the report, then the findings of the judge's pins (``PolicyJudge/pins``:
    /// `scan --plist`'s `NSPinnedDomains`) in endpoint order.
    ///
    /// > Warning: Connects to every `https` target and entry.
    public func scan(
        _ targets: [Target], lists: [EndpointList], judge: PolicyJudge,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil
    ) async -> ScanReport {
        await scanSlots(targets, lists: lists, judge: judge, progress: progress).report
    }

    /// ``scan(_:lists:judge:progress:)`` with, for each endpoint of the report, its slot (targets first, then
    /// list entries); `entries` replaces the lists' entries when given (a shard's). With `tally` (and
    /// `onEndpoint`), the streamed endpoints are only counted: the batch keeps a skeleton of each profile and the
    /// report returned has no endpoints and no slots (``StreamTally/outcome(listFindings:)`` has the rest).
    func scanSlots(
        _ targets: [Target], lists: [EndpointList], entries selected: [EndpointEntry]? = nil, judge: PolicyJudge,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil,
        onEndpoint: (@Sendable (EndpointResult) -> Void)? = nil, streamOnly: Bool = false, tally: StreamTally? = nil
    ) async -> (report: ScanReport, slots: [Int]) {
        let entries = selected ?? lists.flatMap(\.entries)
        let batch = await ScanPlanner.batch(targets: targets, entries: entries, settings: settings, resolver: resolver)
        let now = tally?.now ?? settings.now ?? Date()
        var prober: (any EndpointProber)?
        let stream = onEndpoint.map { _ in
            EndpointStream(
                plan: batch.plan, owner: batch.owner, targets: targets, entries: entries, judge: judge, now: now,
                tally: tally)
        }
        if let onEndpoint, let stream {
            stream.openCleartext(onEndpoint)
            // The plist's pins are judged from the served chain's DER once every endpoint is in: keep it then.
            prober = StreamingProber(
                base: self.prober, stream: stream, onEndpoint: onEndpoint, dropsDER: streamOnly && judge.pins == nil,
                keepsSkeleton: tally != nil)
        }
        let bySlot = await probe(batch, prober: prober, progress: progress)
        // Interrupted: the endpoints not scanned are streamed as cancelled, and a probe abandoned at the grace
        // deadline that finishes later writes nothing.
        let streamedCancelled = Task.isCancelled ? onEndpoint.map { stream?.closeCancelled($0) ?? 0 } : nil
        if let tally, onEndpoint != nil {
            return (
                tally.outcome(listFindings: lists.flatMap(\.findings)).report
                    .markingPartial(ifCancelled: settings, notScanned: streamedCancelled), []
            )
        }

        var results: [EndpointResult] = []
        var slots: [Int] = []
        for (index, target) in targets.enumerated() {
            let profiles = target.scheme == "http" ? [ServerProfile.cleartext(for: target, now: now)] : bySlot[index]
            results += profiles.map { EndpointResult(profile: $0, ats: judge.judge($0)) }
            slots += Array(repeating: index, count: profiles.count)
        }
        for (index, entry) in entries.enumerated() {
            let profiles =
                entry.isHTTP
                ? [ServerProfile.cleartext(for: entry.target, address: entry.resolve, now: now)]
                : bySlot[targets.count + index]
            results += profiles.map { EndpointResult(profile: $0, ats: judge.judge($0), source: entry.source) }
            slots += Array(repeating: targets.count + index, count: profiles.count)
        }
        // The plist's pins (NSPinnedDomains) against each served chain, in report order, after the lists' findings.
        var pinFindings: [Finding] = []
        if judge.pins != nil {
            for (index, slot) in slots.enumerated() {
                let entry = slot >= targets.count ? entries[slot - targets.count] : nil
                pinFindings += judge.judgePins(of: &results[index], extraAnchors: [entry?.caFile].compactMap { $0 })
            }
        }
        let report = ScanReport(endpoints: results, findings: lists.flatMap(\.findings) + pinFindings)
            .addingExpiryWarnings(days: settings.expiryWarningDays, now: now)
            .addingQuantumRequirement(settings.requireQuantumSecure)
            .markingPartial(ifCancelled: settings)
        return (report, slots)
    }
}

extension EndpointList {
    /// The name findings and errors carry for a list read from standard input.
    public static let standardInputName = "(stdin)"

    /// Reads an endpoint list from standard input (`atscheck scan -`): the format is guessed from the content,
    /// as for a file without a telling extension. A relative `caFile` is relative to the working directory.
    /// - Throws: ``InputFileError`` when the input is larger than the text limit, not UTF-8, or malformed.
    public static func loadStandardInput(_ handle: FileHandle = .standardInput) throws -> EndpointList {
        let name = standardInputName
        var data = Data()
        while true {
            let chunk: Data?
            do { chunk = try handle.read(upToCount: 1 << 16) } catch {
                throw InputFileError(file: name, reason: "cannot read standard input")
            }
            guard let chunk, !chunk.isEmpty else { break }
            data.append(chunk)
            if data.count > InputLimits.endpointTextBytes {
                throw InputFileError(
                    file: name, reason: InputLimits.tooLargeReason(limit: InputLimits.endpointTextBytes))
            }
        }
        let text = try StructuredFile.decodeUTF8(data, file: name)
        return try parse(text: text, file: name)
    }
}
