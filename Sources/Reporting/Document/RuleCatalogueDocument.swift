import TLSModel

/// What `rules` reports: the rule catalogue, or the rules asked for.
package struct RuleCatalogueDocument: ReportDocument {
    package static let name = "rules"

    /// The rules, in catalogue order.
    package var rules: [RuleDescriptor]

    /// - Parameter rules: the rules.
    package init(rules: [RuleDescriptor]) { self.rules = rules }

    package static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.rules }

    package mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {}

    /// `{"rules": [...]}`.
    package func encode(to encoder: Encoder) throws {
        try RuleCatalogueRenderer.Document(rules: rules.map(RuleCatalogueRenderer.Entry.init)).encode(to: encoder)
    }
}
