/// Why a report is partial: the run was interrupted (Ctrl-C, SIGTERM, or its task cancelled) before every endpoint
/// was scanned.
///
/// In the JSON report it is the `partial` object, absent from a complete report; a JSON Lines stream ends with it in
/// its summary line. The endpoints not scanned are in the report with status `cancelled` (docs/json-output.md).
public struct PartialScan: Codable, Sendable, Equatable {
    /// The signal that stopped the run (`SIGINT`, `SIGTERM`); nil when the scanning task was cancelled otherwise
    /// (a library caller).
    public var signal: String?
    /// How many endpoints were not scanned: never started, or abandoned at the grace deadline (status `cancelled`).
    public var notScanned: Int
    /// How long, in seconds, the endpoints in flight were given to finish after the interruption.
    public var graceSeconds: Double

    /// - Parameters:
    ///   - signal: the signal's name, or nil.
    ///   - notScanned: the endpoints reported `cancelled`.
    ///   - graceSeconds: the grace the endpoints in flight had.
    public init(signal: String? = nil, notScanned: Int, graceSeconds: Double) {
        self.signal = signal
        self.notScanned = notScanned
        self.graceSeconds = graceSeconds
    }

    /// What people read after `partial report: `: `interrupted by SIGINT; 3 endpoints not scanned`.
    public var summary: String {
        let by = signal.map { " by \($0)" } ?? ""
        let endpoints = notScanned == 1 ? "1 endpoint" : "\(notScanned) endpoints"
        return "interrupted\(by); \(endpoints) not scanned"
    }
}
