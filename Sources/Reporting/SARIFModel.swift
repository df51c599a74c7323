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
    var results: [SARIFResult]
    var columnKind: String
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

    struct Configuration: Encodable {
        var level: String
    }
}

struct SARIFResult: Encodable {
    var ruleId: String
    var ruleIndex: Int
    var level: String
    var message: SARIFMessage
    var locations: [SARIFLocation]
    /// ``Fingerprint`` under ``SARIFRenderer/fingerprintKey``: lets GitHub code scanning track an alert across runs.
    var partialFingerprints: [String: String]?
}

struct SARIFLocation: Encodable {
    var physicalLocation: PhysicalLocation?
    var logicalLocations: [LogicalLocation]?

    var isEmpty: Bool { physicalLocation == nil && (logicalLocations?.isEmpty ?? true) }

    struct PhysicalLocation: Encodable {
        var artifactLocation: ArtifactLocation
        var region: SARIFRegion?
    }

    struct ArtifactLocation: Encodable {
        var uri: String
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
