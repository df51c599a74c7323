import Foundation

/// One endpoint in a report: the scanned profile plus its ATS verdict.
///
/// Encodes flat, as the contract requires: the profile's fields and `ats` side by side.
public struct EndpointResult: Codable, Sendable, Equatable {
    public var profile: ServerProfile
    public var ats: ATSEvaluation
    /// Where the endpoint came from (an endpoint file and line), when it came from a file.
    public var source: SourceLocation?

    public init(profile: ServerProfile, ats: ATSEvaluation = .notEvaluated, source: SourceLocation? = nil) {
        self.profile = profile
        self.ats = ats
        self.source = source
    }

    private enum ExtraKeys: String, CodingKey { case ats, source, quantumSecure }

    public init(from decoder: Decoder) throws {
        profile = try ServerProfile(from: decoder)
        let container = try decoder.container(keyedBy: ExtraKeys.self)
        ats = try container.decodeIfPresent(ATSEvaluation.self, forKey: .ats) ?? .notEvaluated
        source = try container.decodeIfPresent(SourceLocation.self, forKey: .source)
    }

    public func encode(to encoder: Encoder) throws {
        try profile.encode(to: encoder)
        var container = encoder.container(keyedBy: ExtraKeys.self)
        try container.encode(ats, forKey: .ats)
        try container.encodeIfPresent(source, forKey: .source)
        // Derived from `simulations` (``ServerProfile/quantumSecure``), written for readers of the JSON and ignored
        // when read back: null when iOS 26 was not simulated or did not connect, absent when nothing was simulated.
        if profile.simulations != nil {
            if let secure = profile.quantumSecure {
                try container.encode(secure, forKey: .quantumSecure)
            } else {
                try container.encodeNil(forKey: .quantumSecure)
            }
        }
    }
}

/// A place in an input file.
public struct SourceLocation: Codable, Sendable, Equatable, Hashable {
    public var file: String
    public var line: Int?
    public init(file: String, line: Int? = nil) {
        self.file = file
        self.line = line
    }
}

/// Counts over a report.
public struct ReportSummary: Codable, Sendable, Equatable {
    /// Endpoints scanned whose ATS verdict is pass.
    public var passed: Int
    /// Endpoints whose ATS verdict is fail.
    public var failed: Int
    /// Endpoints whose ATS verdict is ambiguous: it depends on a conflicting Apple rule (docs/apple-rules.md,
    /// CONFLICT), so the report says both readings instead of counting the endpoint as a failure. Absent from reports
    /// of atscheck before it was counted apart (they counted these under `failed`): read as 0.
    public var ambiguous: Int
    /// Endpoints that could not be scanned (unreachable, timeout, error).
    public var unreachable: Int
    /// Endpoints scanned whose verdict is unknown (ATS not evaluated, or a partial scan).
    public var unknown: Int
    /// Total handshakes across all endpoints.
    public var handshakes: Int
    /// Endpoints whose iOS 26 connections negotiate a post-quantum hybrid (``ServerProfile/quantumSecure`` true),
    /// among the scanned endpoints whose Apple clients were simulated; nil (omitted) when no endpoint was simulated.
    public var quantumSecure: Int?
    /// Simulated endpoints whose iOS 26 connections negotiate a classical group; nil when none was simulated.
    public var notQuantumSecure: Int?
    /// Simulated endpoints where it is unknown (iOS 26 not simulated, or it did not connect); nil when none was
    /// simulated.
    public var quantumUnknown: Int?

    public init(
        passed: Int = 0, failed: Int = 0, ambiguous: Int = 0, unreachable: Int = 0, unknown: Int = 0,
        handshakes: Int = 0
    ) {
        self.passed = passed
        self.failed = failed
        self.ambiguous = ambiguous
        self.unreachable = unreachable
        self.unknown = unknown
        self.handshakes = handshakes
    }

    public init(endpoints: [EndpointResult]) {
        self.init()
        for endpoint in endpoints {
            // A saved profile is input: a negative count adds nothing and a huge one saturates, never traps.
            let (sum, overflow) = handshakes.addingReportingOverflow(max(0, endpoint.profile.handshakes))
            handshakes = overflow ? Int.max : sum
            if endpoint.profile.status != .completed {
                unreachable += 1
                continue
            }
            switch endpoint.ats.verdict {
            case .pass: passed += 1
            case .fail: failed += 1
            case .ambiguous: ambiguous += 1
            case .unknown: unknown += 1
            }
            if endpoint.profile.simulations != nil { countQuantum(endpoint.profile.quantumSecure) }
        }
    }

    /// Counts one simulated endpoint's quantum-secure readiness (true, false or unknown).
    package mutating func countQuantum(_ secure: Bool?) {
        // Once one endpoint was simulated, all three counts are written (zeros included).
        quantumSecure = (quantumSecure ?? 0) + (secure == true ? 1 : 0)
        notQuantumSecure = (notQuantumSecure ?? 0) + (secure == false ? 1 : 0)
        quantumUnknown = (quantumUnknown ?? 0) + (secure == nil ? 1 : 0)
    }

    /// Adds another summary's counts (a shard's, a streamed endpoint's); handshakes saturate.
    package mutating func add(_ other: ReportSummary) {
        passed += other.passed
        failed += other.failed
        ambiguous += other.ambiguous
        unreachable += other.unreachable
        unknown += other.unknown
        let (sum, overflow) = handshakes.addingReportingOverflow(other.handshakes)
        handshakes = overflow ? Int.max : sum
        if other.quantumSecure != nil || other.notQuantumSecure != nil || other.quantumUnknown != nil {
            quantumSecure = (quantumSecure ?? 0) + (other.quantumSecure ?? 0)
            notQuantumSecure = (notQuantumSecure ?? 0) + (other.notQuantumSecure ?? 0)
            quantumUnknown = (quantumUnknown ?? 0) + (other.quantumUnknown ?? 0)
        }
    }

    /// The endpoints whose readiness was looked at (simulated ones): nil when none was.
    package var quantumJudged: Int? {
        guard let secure = quantumSecure else { return nil }
        return secure + (notQuantumSecure ?? 0) + (quantumUnknown ?? 0)
    }
}

extension ReportSummary {
    enum CodingKeys: String, CodingKey {
        case passed, failed, ambiguous, unreachable, unknown, handshakes, quantumSecure, notQuantumSecure,
            quantumUnknown
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            passed: try c.decode(Int.self, forKey: .passed), failed: try c.decode(Int.self, forKey: .failed),
            ambiguous: try c.decodeIfPresent(Int.self, forKey: .ambiguous) ?? 0,
            unreachable: try c.decode(Int.self, forKey: .unreachable),
            unknown: try c.decode(Int.self, forKey: .unknown),
            handshakes: try c.decode(Int.self, forKey: .handshakes))
        quantumSecure = try c.decodeIfPresent(Int.self, forKey: .quantumSecure)
        notQuantumSecure = try c.decodeIfPresent(Int.self, forKey: .notQuantumSecure)
        quantumUnknown = try c.decodeIfPresent(Int.self, forKey: .quantumUnknown)
    }
}

/// The whole report: the JSON model every other format renders.
public struct ScanReport: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    public var endpoints: [EndpointResult]
    public var findings: [Finding]
    public var summary: ReportSummary
    /// The tool that made the report.
    public var tool: ToolInfo
    /// Set only by a `--shard I/N` run (absent from the JSON otherwise).
    public var shard: ReportShard?
    /// The CT log list and root stores the run judged trust with, and their dates (absent from reports of atscheck
    /// before it, and from runs that judged no trust).
    public var trustData: TrustDataInfo?
    /// Set only when the run was interrupted before every endpoint was scanned (absent from the JSON otherwise): the
    /// report holds what completed, and the endpoints not scanned with status `cancelled`.
    public var partial: PartialScan?

    public init(endpoints: [EndpointResult], findings: [Finding] = [], tool: ToolInfo = ToolInfo()) {
        self.schemaVersion = ScanReport.currentSchemaVersion
        self.endpoints = endpoints
        self.findings = findings
        self.summary = ReportSummary(endpoints: endpoints)
        self.tool = tool
    }
}

/// Identifies the producer of a report.
public struct ToolInfo: Codable, Sendable, Equatable {
    public var name: String
    public var version: String
    public init(name: String = "atscheck", version: String = ToolInfo.currentVersion) {
        self.name = name
        self.version = version
    }
    /// atscheck's version: in every report and in `atscheck --version`.
    public static let currentVersion = "0.1.0"
}
