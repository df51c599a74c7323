import TLSModel

/// The subset of the SARIF 2.1.0 object model atscheck writes (OASIS SARIF 2.1.0 §3).
struct SARIFLog: Encodable {
    var schema: String
    var version: String
    var runs: [SARIFRun]

    enum CodingKeys: String, CodingKey {
        case schema = "$schema"
        case version, runs
    }
}

struct SARIFRun: Encodable {
    var tool: SARIFTool
    /// `%SRCROOT%` → the repository root, when known.
    var originalUriBaseIds: [String: BaseURI]?
    var results: [SARIFResult]
    var columnKind: String
    /// Only for an interrupted scan (absent otherwise): the invocation did not succeed, and says why.
    var invocations: [SARIFInvocation]?
    /// Only for an interrupted scan: the report's `partial` marker, as in the JSON report.
    var properties: Properties?

    struct BaseURI: Encodable {
        var uri: String
    }

    struct Properties: Encodable {
        var partial: PartialScan
    }
}

/// How the run went (SARIF §3.20): written only when the scan was interrupted, so that a reader does not take the
/// missing results for a clean bill.
struct SARIFInvocation: Encodable {
    var executionSuccessful: Bool
    /// `SIGINT` or `SIGTERM` (§3.20.26).
    var exitSignalName: String?
    var toolExecutionNotifications: [Notification]

    /// §3.58.
    struct Notification: Encodable {
        var level: String
        var message: SARIFMessage
    }
}

struct SARIFTool: Encodable {
    var driver: Driver

    struct Driver: Encodable {
        var name: String
        var version: String
        var informationUri: String
        var rules: [SARIFRule]
    }
}

struct SARIFMessage: Encodable {
    var text: String
}

struct SARIFRule: Encodable {
    var id: String
    var shortDescription: SARIFMessage
    var fullDescription: SARIFMessage?
    var help: SARIFMessage?
    var defaultConfiguration: Configuration
    var helpUri: String?
    var properties: Properties?

    struct Configuration: Encodable {
        var level: String
    }

    /// Tags (GitHub filters alerts by them), the OWASP MASVS control and MASTG test, and GitHub's security severity.
    struct Properties: Encodable {
        var tags: [String]
        var masvs: [String]?
        var mastg: [String]?
        var securitySeverity: String?

        enum CodingKeys: String, CodingKey {
            case tags, masvs, mastg
            case securitySeverity = "security-severity"
        }
    }
}

struct SARIFResult: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: SARIFMessage
    var locations: [SARIFLocation]
    /// The scan rules behind an audit finding, at the same place (``ReportIssue/related``).
    var relatedLocations: [SARIFLocation]?
    /// ``Fingerprint`` under ``SARIFRenderer/fingerprintKey``: lets GitHub code scanning track an alert across runs.
    var partialFingerprints: [String: String]?
    /// The property bag (SARIF §3.8): the finding's key path as keys, beside the dotted `fullyQualifiedName`; the
    /// simulated Apple clients of an `info.tls.apple-clients` note, as the JSON report's `simulations`.
    var properties: Properties?

    struct Properties: Encodable {
        var keyPathComponents: [String]?
        var simulations: [ClientSimulation]?
    }
}

struct SARIFLocation: Encodable {
    /// Set on related locations only (SARIF §3.28.2: unique within the result).
    var id: Int?
    var physicalLocation: PhysicalLocation?
    var logicalLocations: [LogicalLocation]?
    var message: SARIFMessage?

    init(physicalLocation: PhysicalLocation? = nil, logicalLocations: [LogicalLocation]? = nil) {
        self.physicalLocation = physicalLocation
        self.logicalLocations = logicalLocations
    }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: SARIFRegion?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
        var uriBaseId: String?
    }

    struct LogicalLocation: Encodable {
        var name: String?
        var fullyQualifiedName: String
        var kind: String
    }
}

struct SARIFRegion: Encodable {
    var startLine: Int
}
