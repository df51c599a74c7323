import TLSModel

/// What `plist --explain` reports: the effective policy of each plist.
package struct ExplanationDocument: ReportDocument {
    package static let name = "explanations"

    /// The plists, in the order given.
    package var plists: [ExplainedPlist]

    /// - Parameter plists: the plists' effective policies.
    package init(plists: [ExplainedPlist]) { self.plists = plists }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.explanation }

    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {}

    /// The explanation, or an array of them for several plists.
    package func encode(to encoder: Encoder) throws {
        let values = plists.map(\.explanation)
        try values.count == 1 ? values[0].encode(to: encoder) : values.encode(to: encoder)
    }
}

/// One plist's effective policy (`plist --explain`).
package struct ExplainedPlist: Sendable {
    /// The file as given (named in the text when several are explained).
    package var file: String
    package var explanation: PolicyExplanation

    /// - Parameters:
    ///   - file: the file as given.
    ///   - explanation: its effective policy.
    package init(file: String, explanation: PolicyExplanation) {
        self.file = file
        self.explanation = explanation
    }
}
