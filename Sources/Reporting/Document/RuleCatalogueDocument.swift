import TLSModel

/// What `rules` reports: the rule catalogue, or the rules asked for.
public struct RuleCatalogueDocument: ReportDocument {
    public static let name = "rules"

    /// The rules, in catalogue order.
    public var rules: [RuleDescriptor]

    /// - Parameter rules: the rules.
    public init(rules: [RuleDescriptor]) { self.rules = rules }

    public static func rendering(by renderer: any ReportRenderer) -> Rendering<Self> { renderer.rules }

    public mutating func complete(root: ArtifactRoot, trustData: TrustDataInfo?) {}

    /// `{"rules": [...]}`.
    public func encode(to encoder: Encoder) throws {
        try RuleCatalogueRenderer.Document(rules: rules.map(RuleCatalogueRenderer.Entry.init)).encode(to: encoder)
    }
}
