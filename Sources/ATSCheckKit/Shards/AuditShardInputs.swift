import ATSPolicy
import Foundation
import TLSModel

/// What `atscheck merge` needs to rebuild a whole audit from its shards (`auditShard` in a sharded audit's JSON):
/// the input files (read again at merge time: the exception debt needs the whole list), the options that judge,
/// and a fingerprint of each file, so that a file changed between the shard jobs and the merge is refused
/// rather than merged into a report no single run would give.
///
/// Paths are recorded as given: run the merge from the same working directory as the shards (in CI, the
/// checkout's root).
public struct AuditShardInputs: Codable, Sendable, Equatable {
    /// `--plist`; nil: the default ATS policy.
    public var plist: String?
    /// `--endpoints`.
    public var endpoints: String
    /// `--baseline`.
    public var baseline: String?
    /// `--os-version`.
    public var os: AppleOSVersion
    /// `--client`.
    public var client: ClientKind
    /// `--ca-file`, in order.
    public var caFiles: [String]
    /// Whether the system trust store counted.
    public var useSystemTrustStore: Bool
    /// `--warn-days` (nil: no expiry warnings).
    public var warnDays: Int?
    /// A fixed evaluation time, when the run had one (tests).
    public var evaluationTime: Date?
    /// When the shard ran (baseline expiry, and expiry warnings without a fixed time); the merge uses the earliest.
    public var ranAt: Date
    /// Path → fingerprint (FNV-1a 64, hex) of each input file (plist, endpoint list, baseline, `--ca-file`s).
    public var fingerprints: [String: String]

    /// The inputs of an audit shard.
    /// - Throws: ``InputFileError`` when an input file cannot be read (it was read a moment ago by the audit).
    init(
        plist: String?, endpoints: String, baseline: String?, for client: ATSClient, settings: ScanSettings, now: Date
    ) throws {
        self.plist = plist
        self.endpoints = endpoints
        self.baseline = baseline
        self.os = client.os
        self.client = client.kind
        self.caFiles = settings.caFiles
        self.useSystemTrustStore = settings.useSystemTrustStore
        self.warnDays = settings.expiryWarningDays
        self.evaluationTime = settings.now
        self.ranAt = now
        var fingerprints: [String: String] = [:]
        for path in Set([plist, endpoints, baseline].compactMap { $0 } + settings.caFiles) {
            fingerprints[path] = try Self.fingerprint(of: path)
        }
        self.fingerprints = fingerprints
    }

    /// Equal but for when the shards ran.
    func sameAudit(as other: AuditShardInputs) -> Bool {
        var a = self, b = other
        a.ranAt = .distantPast
        b.ranAt = .distantPast
        return a == b
    }

    /// The settings the judging reads.
    var settings: ScanSettings {
        var settings = ScanSettings()
        settings.caFiles = caFiles
        settings.useSystemTrustStore = useSystemTrustStore
        settings.expiryWarningDays = warnDays
        settings.now = evaluationTime
        return settings
    }

    /// FNV-1a (64 bit) of a file's bytes, in hex: a change detector, not a security check.
    static func fingerprint(of path: String) throws -> String {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw InputFileError(file: path, reason: "cannot be read")
        }
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        return String(hash, radix: 16)
    }
}
