import TLSModel

/// Everything one run of a command reports, as sections that each format's ``ReportRenderer`` shows its own way.
///
/// A command fills the sections it has and hands the document to the CLI's one `emit`, which renders it in every
/// format asked for: no command knows the formats. Which command fills what:
///
/// | command | sections |
/// | --- | --- |
/// | `scan`, `merge` of scans, `plist` | ``scan`` |
/// | `audit`, `merge` of audits | ``scan``, ``audit`` |
/// | `app` (`--offline` or live) | ``scan``, ``app`` |
/// | `diagnose` | ``scan`` (the endpoint under the default policy), ``diagnosis`` |
/// | `pins check` | ``pins`` |
/// | `pins extract` | ``pinExtract`` |
/// | `plist --explain` | ``explanations`` |
/// | `rules` | ``rules`` |
///
/// ``scan`` is what the CI formats (SARIF, JUnit, GitHub, Code Climate, Markdown) show of a document; the
/// sections beside it add to the text and the JSON. ``pins``, ``pinExtract``, ``explanations`` and ``rules``
/// stand alone, and ``diagnosis`` replaces ``scan`` in the text.
public struct ReportDocument: Sendable {
    /// A kind of section: what a renderer says it can show (``ReportRenderer/sections``).
    public enum Section: String, CaseIterable, Sendable {
        case scan, audit, app, diagnosis, pins, pinExtract, explanations, rules
    }

    /// Endpoints (with their ATS verdicts) and findings: the report of the JSON contract.
    public var scan: ScanReport?
    /// An audit's exception debt and pin checks (beside ``scan``).
    public var audit: AuditSection?
    /// An app build's facts and, live, its verdicts per OS era and pin checks (beside ``scan``).
    public var app: AppSection?
    /// The nscurl matrix of `diagnose` (beside ``scan``).
    public var diagnosis: DiagnosisSection?
    /// A pin check (`pins check`).
    public var pins: PinCheckReport?
    /// The pins extracted from a live path (`pins extract`).
    public var pinExtract: PinExtractReport?
    /// The effective policy of each plist (`plist --explain`).
    public var explanations: [ExplainedPlist]?
    /// The rule catalogue (`rules`).
    public var rules: [RuleDescriptor]?
    /// The input files findings and endpoints without a file of their own are placed in.
    public var sources: ReportSources
    /// The trust data the run judged with, for the JSON of the commands without a scan report (`diagnose`, `pins
    /// check`, `pins extract`); a scan report carries its own (``ScanReport/trustData``).
    public var trustData: TrustDataInfo?

    /// A document with the given sections.
    public init(
        scan: ScanReport? = nil, audit: AuditSection? = nil, app: AppSection? = nil, diagnosis: DiagnosisSection? = nil,
        pins: PinCheckReport? = nil, pinExtract: PinExtractReport? = nil, explanations: [ExplainedPlist]? = nil,
        rules: [RuleDescriptor]? = nil, sources: ReportSources = ReportSources()
    ) {
        self.scan = scan
        self.audit = audit
        self.app = app
        self.diagnosis = diagnosis
        self.pins = pins
        self.pinExtract = pinExtract
        self.explanations = explanations
        self.rules = rules
        self.sources = sources
    }

    /// The sections the document has, in ``Section`` order.
    public var sections: [Section] {
        let present: [(Section, Bool)] = [
            (.scan, scan != nil), (.audit, audit != nil), (.app, app != nil), (.diagnosis, diagnosis != nil),
            (.pins, pins != nil), (.pinExtract, pinExtract != nil), (.explanations, explanations != nil),
            (.rules, rules != nil),
        ]
        return present.filter(\.1).map(\.0)
    }
}

/// The input files of a run, for the formats that place findings in files (SARIF, GitHub, Code Climate).
public struct ReportSources: Sendable, Equatable {
    /// The plist a finding without a file is placed in.
    public var plistFile: String?
    /// The endpoint list an endpoint without a `source` is placed in.
    public var endpointsFile: String?
    /// The repository file URIs are relative to, and the artifact of results without a file (``ArtifactRoot``); the
    /// CLI sets it for every run, nil leaves relative paths as given.
    public var root: ArtifactRoot?

    /// - Parameters:
    ///   - plistFile: the plist a finding without a file is placed in.
    ///   - endpointsFile: the endpoint list an endpoint without a `source` is placed in.
    ///   - root: the repository file URIs are relative to.
    public init(plistFile: String? = nil, endpointsFile: String? = nil, root: ArtifactRoot? = nil) {
        self.plistFile = plistFile
        self.endpointsFile = endpointsFile
        self.root = root
    }

    /// The file a result without one is placed in: the endpoint list, else the plist, else the invocation artifact.
    public var fallbackFile: String {
        endpointsFile ?? plistFile ?? root?.invocationArtifact ?? ArtifactRoot.defaultInvocationArtifact
    }
}

/// One plist's effective policy (`plist --explain`).
public struct ExplainedPlist: Sendable {
    /// The file as given (named in the text when several are explained).
    public var file: String
    public var explanation: PolicyExplanation

    /// - Parameters:
    ///   - file: the file as given.
    ///   - explanation: its effective policy.
    public init(file: String, explanation: PolicyExplanation) {
        self.file = file
        self.explanation = explanation
    }
}
