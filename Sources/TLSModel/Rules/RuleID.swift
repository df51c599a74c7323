/// The stable id of a rule atscheck reports, e.g. `ats.tls.forward-secrecy` or `plist.key.unknown`.
///
/// An open struct over the id text, like ``CipherSuite``: every id the tool emits has a constant and an
/// entry in a rule registry (``RuleCatalogue``) (grouped by family: `RuleID.ATS.forwardSecrecy`, `RuleID.Plist.keyUnknown`),
/// but an id read from a saved report or a baseline that the catalogue does not know stays representable.
/// Encodes as the bare string, so the JSON contract is unchanged. Ids never change once published; a
/// retired rule keeps its id unused.
public struct RuleID: RawRepresentable, Hashable, Comparable, Sendable, Codable, ExpressibleByStringLiteral,
    CustomStringConvertible
{
    /// The id text, e.g. `trust.eku`.
    public let rawValue: String

    /// An id from its text.
    /// - Parameter rawValue: The id text, e.g. `trust.eku`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// An id from its text.
    /// - Parameter rawValue: The id text, e.g. `trust.eku`.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// An id written as a literal; only the catalogue files (`RuleCatalogue+*.swift`) should spell ids.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// Decodes the bare id string.
    /// - Throws: A `DecodingError` when the value is not a string.
    public init(from decoder: Decoder) throws {
        rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    /// Encodes the bare id string.
    /// - Throws: An `EncodingError` from the encoder.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }

    /// Orders by the id text (stable output order for findings on the same line).
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { rawValue }
}

/// A family of rules: one namespace of ``RuleID`` constants, one section of `docs/rules.md`.
///
/// The order of the cases is the order of the documentation and of ``RuleCatalogue/all``.
public enum RuleFamily: String, CaseIterable, Codable, Sendable, Comparable {
    /// Endpoint-level verdicts that are not one rule (`ats.fail`, `ats.ambiguous`, `ats.unknown`).
    case verdict
    /// ATS: cleartext HTTP (`ats.http.*`), NSURLError −1022.
    case http
    /// ATS: TLS version and cipher suite negotiation (`ats.tls.*`), NSURLError −1200.
    case tls
    /// Apple's certificate trust rules (`trust.*`), NSURLError −1202; they apply even with ATS off.
    case trust
    /// Endpoints that could not be scanned (`scan.*`).
    case scan
    /// What a scan learnt about an endpoint that is no ATS rule: notes, never failures (`info.*`).
    case info
    /// Requirements beyond ATS that a run opts into (`required.*`, `--require-pq`): failures only when asked for.
    case required
    /// `NSAppTransportSecurity` validation by `atscheck plist` (`plist.*`).
    case plist
    /// The plist-against-endpoints cross-check of `atscheck audit` (`audit.*`).
    case audit
    /// Endpoint list files (`endpoints.*`).
    case endpoints
    /// Baseline (waiver) files (`baseline.*`).
    case baseline
    /// Pin checks of `atscheck pins` (`pins.*`).
    case pins
    /// What `atscheck app` reads in a shipped bundle: libraries, bundled pins, the OS range (`app.*`).
    case app

    /// The section title in `docs/rules.md`.
    public var title: String {
        switch self {
        case .verdict: return "Endpoint verdicts"
        case .http: return "ATS: cleartext HTTP"
        case .tls: return "ATS: TLS negotiation"
        case .trust: return "Apple certificate trust"
        case .scan: return "Scan status"
        case .info: return "Endpoint notes (not ATS rules)"
        case .required: return "Requirements you opt into (not ATS rules)"
        case .plist: return "Info.plist (`atscheck plist`)"
        case .audit: return "Audit (`atscheck audit`)"
        case .endpoints: return "Endpoint lists"
        case .baseline: return "Baselines"
        case .pins: return "Pins"
        case .app: return "App bundles (`atscheck app`)"
        }
    }

    /// Orders as declared (the documentation order).
    public static func < (lhs: RuleFamily, rhs: RuleFamily) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
