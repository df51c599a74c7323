import TLSModel

/// What `plist --explain` reports: the effective policy of each plist.
public struct ExplanationDocument: ReportDocument {
    public static let name = "explanations"

    /// The plists, in the order given.
    public var plists: [ExplainedPlist]

    /// - Parameter plists: the plists' effective policies.
    public init(plists: [ExplainedPlist]) { self.plists = plists }

    public static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.explanation }

    public mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {}

    /// The explanation, or an array of them for several plists.
    public func encode(to encoder: Encoder) throws {
        let values = plists.map(\.explanation)
        try values.count == 1 ? values[0].encode(to: encoder) : values.encode(to: encoder)
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
