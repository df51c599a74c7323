import Foundation

/// One target of `atscheck pins check`: how the scan went and what the library decided.
public struct PinCheckResult: Codable, Sendable, Equatable {
    /// The target as given (`host:port`).
    public var target: String
    /// The host the app connects to (SNI, hostname checks, policy lookup).
    public var host: String
    /// The port.
    public var port: Int
    /// The address connected to, when known.
    @ExplicitNull public var address: String?
    /// `completed` when a chain was received; otherwise why not (exit 2).
    public var status: ScanStatus
    /// Why the chain could not be read; nil when completed.
    @ExplicitNull public var error: String?
    /// The served chain, leaf first, as the server sent it.
    public var served: [PinPathEntry]
    /// The policy the options describe; nil when no chain was received.
    @ExplicitNull public var evaluation: PinEvaluation?
    /// With relaxations: the same mode without them (the release build); nil otherwise.
    @ExplicitNull public var release: PinEvaluation?
    /// The risks of shipping the relaxed configuration (docs/pinning-rules.md §2); empty without relaxations.
    public var risks: [Finding]

    /// A result.
    public init(
        target: String, host: String, port: Int, address: String?, status: ScanStatus, error: String?,
        served: [PinPathEntry] = [], evaluation: PinEvaluation? = nil, release: PinEvaluation? = nil,
        risks: [Finding] = []
    ) {
        self.target = target
        self.host = host
        self.port = port
        self.address = address
        self.status = status
        self.error = error
        self.served = served
        self.evaluation = evaluation
        self.release = release
        self.risks = risks
    }
}

/// Counts of a pin check.
public struct PinCheckSummary: Codable, Sendable, Equatable {
    /// Targets the policy accepts.
    public var accepted: Int
    /// Targets the policy rejects.
    public var rejected: Int
    /// Targets whose chain could not be read.
    public var unreachable: Int

    /// A summary.
    public init(accepted: Int, rejected: Int, unreachable: Int) {
        self.accepted = accepted
        self.rejected = rejected
        self.unreachable = unreachable
    }
}

/// The report of `atscheck pins check` (docs/pins.md): the JSON model every other format renders.
public struct PinCheckReport: Codable, Sendable, Equatable {
    /// 1.
    public var schemaVersion: Int
    /// The tool.
    public var tool: ToolInfo
    /// The mechanism evaluated.
    public var library: PinLibrary
    /// The pin material files read (`--pins`), in order.
    public var pinFiles: [String]
    /// One result per target, in order.
    public var results: [PinCheckResult]
    /// Findings about the pin material (`pins.material.*`, pin-set checks), with file and line.
    public var findings: [Finding]
    /// Counts.
    public var summary: PinCheckSummary
    /// `ats-only` when the chains came from the ATS-only probe (the default: suite lists were not enumerated);
    /// nil (not written) after a full scan (`--full`).
    public var scope: String?

    /// A report; the summary is computed from the results.
    public init(
        library: PinLibrary, pinFiles: [String], results: [PinCheckResult], findings: [Finding],
        tool: ToolInfo = ToolInfo()
    ) {
        self.schemaVersion = 1
        self.tool = tool
        self.library = library
        self.pinFiles = pinFiles
        self.results = results
        self.findings = findings
        self.summary = PinCheckSummary(
            accepted: results.filter { $0.evaluation?.verdict == .accept }.count,
            rejected: results.filter { $0.evaluation?.verdict == .reject }.count,
            unreachable: results.filter { $0.evaluation == nil }.count)
    }
}

/// The report of `atscheck pins extract`.
public struct PinExtractReport: Codable, Sendable, Equatable {
    /// 1.
    public var schemaVersion: Int
    /// The tool.
    public var tool: ToolInfo
    /// The target as given.
    public var target: String
    /// The host the path was served for.
    public var host: String
    /// The live path (default trust: system store plus `--ca-file`), leaf first.
    public var path: [PinPathEntry]
    /// Whether the live path verifies under the SSL policy for the host.
    public var trusted: Bool
    /// Why it does not; nil when trusted.
    @ExplicitNull public var verifyError: String?
    /// What to pin and why.
    public var recommendation: PinRecommendation
    /// The material written.
    public var material: PinMaterial
    /// The files written (paths under `--out`).
    public var written: [String]

    /// A report.
    public init(
        target: String, host: String, path: [PinPathEntry], trusted: Bool, verifyError: String?,
        recommendation: PinRecommendation, material: PinMaterial, written: [String], tool: ToolInfo = ToolInfo()
    ) {
        self.schemaVersion = 1
        self.tool = tool
        self.target = target
        self.host = host
        self.path = path
        self.trusted = trusted
        self.verifyError = verifyError
        self.recommendation = recommendation
        self.material = material
        self.written = written
    }
}
