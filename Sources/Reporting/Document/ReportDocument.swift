import TLSModel

/// What one run of a command reports: one conforming type per kind of command output, each a plain value with
/// exactly the parts that command has (no optional sections).
///
/// | command | document |
/// | --- | --- |
/// | `scan`, `merge` of scans, `plist` | ``ScanDocument`` |
/// | `audit`, `merge` of audits | ``AuditDocument`` |
/// | `app` (`--offline` or live) | ``AppDocument`` |
/// | `diagnose` | ``DiagnosisDocument`` |
/// | `cert` | ``CertDocument`` |
/// | `pins check` | ``PinCheckDocument`` |
/// | `pins extract` | ``PinExtractDocument`` |
/// | `plist --explain` | ``ExplanationDocument`` |
/// | `rules` | ``RuleCatalogueDocument`` |
///
/// A command builds its document and hands it to the CLI's one `emit`; every ``ReportRenderer`` has one
/// requirement per document type (``rendering(by:)`` picks it), so a format that forgets a command does not
/// compile, and a format that cannot show one says so with ``Rendering/unsupported``. Its JSON (`Encodable`) is
/// the command's top-level shape (docs/json-output.md), which the JSON format writes.
package protocol ReportDocument: Encodable, Sendable {
    /// The word for the document in a refusal (`cannot render sarif: it does not show explanations`).
    static var name: String { get }

    /// How a renderer shows documents of this type: its requirement for this type.
    /// - Parameter renderer: the format's renderer.
    /// - Returns: the rendering, or ``Rendering/unsupported``.
    static func rendering(by renderer: any ReportRenderer) -> Rendering<Self>

    /// Completes the document with what only the end of the run knows: the repository file URIs are relative to
    /// (kept when the document has its own) and the trust data the run judged with (kept where the report
    /// already names its own, as a merged report keeps its shards').
    /// - Parameters:
    ///   - root: the artifact root, for the documents that place results in files.
    ///   - trustData: the run's trust data, nil when unknown.
    mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?)
}

/// The input files of a run, for the formats that place findings in files (SARIF, GitHub, Code Climate).
package struct ReportSources: Sendable, Equatable {
    /// The plist a finding without a file is placed in.
    package var plistFile: String?
    /// The endpoint list an endpoint without a `source` is placed in.
    package var endpointsFile: String?
    /// The repository file URIs are relative to, and the artifact of results without a file (``ArtifactRoot``); the
    /// CLI sets it for every run, nil leaves relative paths as given.
    package var root: ArtifactRoot?

    /// - Parameters:
    ///   - plistFile: the plist a finding without a file is placed in.
    ///   - endpointsFile: the endpoint list an endpoint without a `source` is placed in.
    ///   - root: the repository file URIs are relative to.
    package init(plistFile: String? = nil, endpointsFile: String? = nil, root: ArtifactRoot? = nil) {
        self.plistFile = plistFile
        self.endpointsFile = endpointsFile
        self.root = root
    }

    /// The file a result without one is placed in: the endpoint list, else the plist, else the invocation artifact.
    package var fallbackFile: String {
        endpointsFile ?? plistFile ?? root?.invocationArtifact ?? ArtifactRoot.defaultInvocationArtifact
    }
}

extension ReportDocument {
    /// Whether a renderer shows documents of this type (its requirement is not ``Rendering/unsupported``).
    /// - Parameter renderer: the format's renderer.
    /// - Returns: true when the format shows them.
    package static func isShown(by renderer: any ReportRenderer) -> Bool { rendering(by: renderer).isSupported }
}

/// A document built on a scan report (`scan`, `audit`, `app`, `diagnose`, `cert`): what the CI formats (SARIF,
/// JUnit, GitHub, Code Climate, JSON Lines, Markdown) show of it, placed in its input files.
package protocol ScanReportDocument: ReportDocument {
    /// The endpoints and findings.
    var report: ScanReport { get set }
    /// The input files results without a file of their own are placed in.
    var sources: ReportSources { get set }
}

extension ScanReportDocument {
    /// Places results under `root` unless the command named a root, and gives the scan report the run's trust data
    /// unless it carries its own.
    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {
        if sources.root == nil { sources.root = root }
        if report.trustData == nil { report.trustData = trustData }
    }
}

extension ScanDocument: ScanReportDocument {}
extension AuditDocument: ScanReportDocument {}
extension AppDocument: ScanReportDocument {}
extension DiagnosisDocument: ScanReportDocument {}
extension CertDocument: ScanReportDocument {}
