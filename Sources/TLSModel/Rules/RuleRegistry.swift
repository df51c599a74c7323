/// The rules (or plain entries) of one module and family, in documentation order: what a module hands to the
/// catalogue. The catalogue is the concatenation of registries (``RuleCatalogue``).
public struct RuleRegistry: Sendable {
    /// A short name for messages and tests (`ats.trust`, `plist`, `audit`).
    public let name: String
    /// The entries, in documentation order.
    public let entries: [RuleDescriptor]

    /// A registry of rules: their entries, in the order of the rules.
    /// - Parameters:
    ///   - name: A short name.
    ///   - rules: The rules, in documentation order.
    public init(_ name: String, rules: [any Rule]) {
        self.name = name
        self.entries = rules.flatMap(\.entries)
    }

    /// A registry of plain entries: ids that are not one predicate's (verdicts, scan states, pins, apps).
    /// - Parameters:
    ///   - name: A short name.
    ///   - entries: The entries, in documentation order.
    public init(_ name: String, entries: [RuleDescriptor]) {
        self.name = name
        self.entries = entries
    }

    /// The ids the registry declares, in order.
    public var ids: [RuleID] { entries.map(\.id) }

    /// The entry for an id the registry declares.
    /// - Parameter id: A rule id.
    /// - Returns: Its entry, or nil when this registry does not declare it.
    public func descriptor(for id: RuleID) -> RuleDescriptor? { entries.first { $0.id == id } }
}
