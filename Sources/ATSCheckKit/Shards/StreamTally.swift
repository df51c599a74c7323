import Foundation
import Judging
import Synchronization
import TLSModel

extension ScanPipeline {
    /// ``scan(_:lists:shard:judge:progress:onEndpoint:streamOnly:)`` for a stream that is the only output:
    /// each endpoint result is handed to `onEndpoint` as its probe finishes and then only counted, so memory
    /// does not grow with the batch's profiles (`scan --format jsonl` to standard output).
    ///
    /// > Warning: Connects to every `https` target and entry of the shard.
    /// - Parameters:
    ///   - targets: command-line targets.
    ///   - lists: endpoint lists.
    ///   - shard: only the targets and entries in this shard, when given.
    ///   - judge: the ATS policy.
    ///   - progress: called as each distinct probe finishes (with a profile that keeps only its target, status,
    ///     error and handshake count).
    ///   - onEndpoint: receives each endpoint result, whole, one at a time.
    /// - Returns: the summary, findings and exit status the whole report would have.
    package func scanStreaming(
        _ targets: [Target], lists: [EndpointList], shard: Shard?, judge: PolicyJudge,
        progress: (@Sendable (Int, Int, ServerProfile) -> Void)? = nil,
        onEndpoint: @escaping @Sendable (EndpointResult) -> Void
    ) async -> StreamedScan {
        let entries = lists.flatMap(\.entries)
        let tally = StreamTally(
            expiryDays: settings.expiryWarningDays, now: settings.now ?? Date(),
            requireQuantumSecure: settings.requireQuantumSecure)
        let (report, _) = await scanSlots(
            targets.filter { shard?.contains($0) ?? true }, lists: lists,
            entries: entries.filter { shard?.contains($0) ?? true }, judge: judge, progress: progress,
            onEndpoint: onEndpoint, tally: tally)
        var outcome = tally.outcome(listFindings: lists.flatMap(\.findings))
        outcome.report.partial = report.partial  // an interrupted scan's marker, for the summary line
        return outcome
    }
}

/// What a streamed scan (`scan --format jsonl` to standard output, no other report) keeps once every endpoint
/// has been written: the summary line and the exit status, without the endpoints.
package struct StreamedScan: Sendable {
    /// The report with no endpoints (they were streamed): its summary, findings (the lists' own, then those of the
    /// plist's pins and the `--warn-days` warnings, each in endpoint order) and tool are those of the whole report.
    package var report: ScanReport
    /// ``ExitStatus/of(_:)`` of the whole report.
    package var status: ExitStatus
    /// ``ExitStatus/reason(for:)`` of the whole report.
    package var reason: String?
}

/// Folds endpoint results into what ``StreamedScan`` needs, in constant memory per endpoint: counts, the few
/// targets the exit reason names, and the expiry warnings (kept with their endpoint's place, since endpoints
/// finish in any order and the report lists them in report order).
final class StreamTally: Sendable {
    /// An endpoint's place in the report: its slot (targets, then list entries) and its plan index.
    typealias Place = ExitTally.Place

    private struct State {
        var summary = ReportSummary()
        var expiry: [(place: Place, findings: [Finding])] = []
        /// The findings of the judge's pins (`scan --plist`'s NSPinnedDomains), with their endpoint's place.
        var pins: [(place: Place, findings: [Finding])] = []
        /// The `--require-pq` findings, with their endpoint's place.
        var quantum: [(place: Place, findings: [Finding])] = []
        /// The exit status, by the same tally as a whole report's.
        var exit = ExitTally()
    }

    private let state = Mutex(State())
    private let expiryDays: Int?
    /// `--require-pq` (``QuantumSecureRequirement``).
    private let requireQuantumSecure: Bool
    /// The time the whole run judges at (cleartext profiles' dates, the `--warn-days` window).
    let now: Date

    init(expiryDays: Int?, now: Date, requireQuantumSecure: Bool = false) {
        self.expiryDays = expiryDays
        self.now = now
        self.requireQuantumSecure = requireQuantumSecure
    }

    /// Counts one endpoint result at its place in the report, with the findings of the judge's pins for it.
    func add(_ endpoint: EndpointResult, at place: Place, findings pinFindings: [Finding] = []) {
        let one = ReportSummary(endpoints: [endpoint])
        let warnings = expiryDays.map { ExpiryWarnings.findings(for: [endpoint], within: $0, now: now) } ?? []
        let quantum = requireQuantumSecure ? QuantumSecureRequirement.findings(for: [endpoint]) : []
        state.withLock { state in
            state.summary.add(one)
            if !warnings.isEmpty { state.expiry.append((place, warnings)) }
            if !quantum.isEmpty { state.quantum.append((place, quantum)) }
            if !pinFindings.isEmpty { state.pins.append((place, pinFindings)) }
            state.exit.add(endpoint, at: place)
        }
    }

    /// The outcome, once every endpoint was added.
    /// - Parameter listFindings: the endpoint lists' own findings (they come first in a report).
    func outcome(listFindings: [Finding]) -> StreamedScan {
        state.withLock { state in
            var report = ScanReport(endpoints: [], findings: listFindings)
            report.summary = state.summary
            report.findings += state.pins.sorted { $0.place < $1.place }.flatMap(\.findings)
            report.findings += state.expiry.sorted { $0.place < $1.place }.flatMap(\.findings)
            report.findings += state.quantum.sorted { $0.place < $1.place }.flatMap(\.findings)
            var exit = state.exit
            exit.add(findings: report.findings)
            return StreamedScan(report: report, status: exit.status, reason: exit.reason)
        }
    }

    /// What the batch keeps of a streamed profile until the end of the run: what progress lines show.
    static func skeleton(of profile: ServerProfile) -> ServerProfile {
        ServerProfile(
            target: profile.target, host: profile.host, port: profile.port, address: profile.address,
            sni: profile.sni, status: profile.status, error: profile.error, handshakes: profile.handshakes,
            scannedAt: profile.scannedAt)
    }
}
