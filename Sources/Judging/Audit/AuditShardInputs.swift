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
    /// `--trust-store`, as ``TLSModel/TrustStoreSource/recorded`` gives it; nil in shards from before issue 22.
    public var trustStore: String?
    /// `--warn-days` (nil: no expiry warnings).
    public var warnDays: Int?
    /// A fixed evaluation time, when the run had one (tests).
    public var evaluationTime: Date?
    /// When the shard ran (baseline expiry, and expiry warnings without a fixed time); the merge uses the earliest.
    public var ranAt: Date
    /// Path → fingerprint (FNV-1a 64, hex) of each input file (plist, endpoint list, baseline, `--ca-file`s).
    public var fingerprints: [String: String]
    /// How the plist was read (`--define`, `--build-setting`, the `--xcconfig` settings as they were resolved); nil
    /// with none, and in shards from before issue 32.
    public var plistReading: PlistReadOptions?

    /// Inputs as recorded (the facade's initialiser reads the files and fingerprints them).
    public init(
        plist: String?, endpoints: String, baseline: String?, os: AppleOSVersion, client: ClientKind,
        caFiles: [String], useSystemTrustStore: Bool, trustStore: String? = nil, warnDays: Int?,
        evaluationTime: Date?, ranAt: Date, fingerprints: [String: String], plistReading: PlistReadOptions? = nil
    ) {
        self.plistReading = plistReading
        self.plist = plist
        self.endpoints = endpoints
        self.baseline = baseline
        self.os = os
        self.client = client
        self.caFiles = caFiles
        self.useSystemTrustStore = useSystemTrustStore
        self.trustStore = trustStore
        self.warnDays = warnDays
        self.evaluationTime = evaluationTime
        self.ranAt = ranAt
        self.fingerprints = fingerprints
    }

    /// Equal but for when the shards ran.
    public func sameAudit(as other: AuditShardInputs) -> Bool {
        var a = self, b = other
        a.ranAt = .distantPast
        b.ranAt = .distantPast
        return a == b
    }
}
