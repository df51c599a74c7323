/// A finding about an input file (a plist, an endpoint list), as opposed to an endpoint verdict.
public struct Finding: Codable, Sendable, Equatable, Hashable {
    public enum Severity: String, Codable, Sendable, Comparable, CaseIterable {
        case note, warning, error

        private var rank: Int {
            switch self {
            case .note: return 0
            case .warning: return 1
            case .error: return 2
            }
        }
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs.rank < rhs.rank }
    }

    /// A stable rule id, e.g. `plist.key.unknown` (``RuleID/Plist/keyUnknown``); its entry is in ``RuleCatalogue``.
    public var rule: RuleID
    public var severity: Severity
    /// One line a person can act on.
    public var message: String
    @ExplicitNull public var file: String?
    @ExplicitNull public var line: Int?
    /// Dotted key path, e.g. `NSAppTransportSecurity.NSExceptionDomains.example.com.NSIncludesSubdomains`.
    @ExplicitNull public var keyPath: String?
    /// The same path as its keys (`["NSAppTransportSecurity", "NSExceptionDomains", "example.com",
    /// "NSIncludesSubdomains"]`): the dotted form cannot be split back when a domain key has dots. Absent when the
    /// finding has no key path or its producer keeps only the dotted form.
    public var keyPathComponents: [String]?
    /// The build configuration of a preprocessed Info.plist the finding holds in (`DEBUG defined`); absent when it
    /// holds in every configuration, or the file has one.
    public var configuration: String?

    public init(
        rule: RuleID, severity: Severity, message: String, file: String? = nil, line: Int? = nil,
        keyPath: String? = nil
    ) {
        self.rule = rule
        self.severity = severity
        self.message = message
        self.file = file
        self.line = line
        self.keyPath = keyPath
    }
}
