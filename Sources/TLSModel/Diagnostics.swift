import Foundation

/// A plist-typed value, as it appears in an `NSAppTransportSecurity` dictionary.
///
/// JSON keeps the plist types (`"NSExceptionRequiresForwardSecrecy": false`, `"NSExceptionMinimumTLSVersion":
/// "TLSv1.0"`), so a dictionary printed by `atscheck diagnose --format json` can be pasted back into a plist.
public enum PlistValue: Sendable, Equatable, Hashable {
    case bool(Bool)
    case int(Int)
    case string(String)
    case array([PlistValue])
    case dict([String: PlistValue])

    /// The empty dictionary `{}`.
    public static let emptyDict = PlistValue.dict([:])

    /// The dictionary's entries, or nil for another type.
    public var dictionary: [String: PlistValue]? {
        if case .dict(let d) = self { return d }
        return nil
    }

    /// The value as Foundation's `PropertyListSerialization` would give it (`Bool`, `Int`, `String`,
    /// `[Any]`, `[String: Any]`), for code that parses plist dictionaries.
    public var foundationValue: Any {
        switch self {
        case .bool(let b): return b
        case .int(let i): return i
        case .string(let s): return s
        case .array(let a): return a.map(\.foundationValue)
        case .dict(let d): return d.mapValues(\.foundationValue)
        }
    }
}

extension PlistValue: Codable {
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let b = try? container.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? container.decode(Int.self) {
            self = .int(i)
        } else if let s = try? container.decode(String.self) {
            self = .string(s)
        } else if let a = try? container.decode([PlistValue].self) {
            self = .array(a)
        } else if let d = try? container.decode([String: PlistValue].self) {
            self = .dict(d)
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "not a plist value")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .bool(let b): try container.encode(b)
        case .int(let i): try container.encode(i)
        case .string(let s): try container.encode(s)
        case .array(let a): try container.encode(a)
        case .dict(let d): try container.encode(d)
        }
    }
}

/// The reproduction of `nscurl --ats-diagnostics --verbose URL` from one scan (docs/json-output.md).
public struct DiagnosticsReport: Codable, Sendable, Equatable {
    public static let currentSchemaVersion = 1

    public var schemaVersion: Int
    /// The URL as given.
    public var url: String
    /// The URL's host: the `<host>` of the exception dictionaries.
    public var host: String
    /// The Apple OS release whose rules were applied, e.g. `26.4`.
    public var osVersion: String
    /// The tests, in nscurl's order (16 from iOS 13 / macOS 10.15 on, 13 before: no TLSv1.3 tests).
    public var tests: [DiagnosticTest]
    /// The least-permissive exception entry that makes test 1's URL load pass.
    public var minimalException: MinimalException
    /// Assumptions and documentation conflicts that apply to the whole report.
    public var notes: [String]

    public init(
        url: String, host: String, osVersion: String, tests: [DiagnosticTest], minimalException: MinimalException,
        notes: [String] = []
    ) {
        self.schemaVersion = DiagnosticsReport.currentSchemaVersion
        self.url = url
        self.host = host
        self.osVersion = osVersion
        self.tests = tests
        self.minimalException = minimalException
        self.notes = notes
    }
}

/// One nscurl test: an ATS dictionary and the predicted result of loading the URL under it.
public struct DiagnosticTest: Codable, Sendable, Equatable {
    /// The predicted outcome.
    public enum Result: String, Codable, Sendable, Equatable {
        case pass = "PASS"
        case fail = "FAIL"
        /// Two readings of a conflicting Apple rule predict different results.
        case ambiguous = "AMBIGUOUS"
        /// The scan could not tell (a probe timed out or the scan did not complete).
        case unknown = "UNKNOWN"
    }

    /// 1-based position in nscurl's sequence.
    public var number: Int
    /// The section title, e.g. `Default ATS Secure Connection`.
    public var section: String
    /// The test title, e.g. `ATS Default Connection`.
    public var title: String
    /// The `NSAppTransportSecurity` dictionary of the test.
    public var dictionary: PlistValue
    public var result: Result
    /// Why the test fails (an NSURLError-style line such as `-1200 TLS handshake would fail: …`), or what
    /// the readings say for `AMBIGUOUS`; nil on PASS.
    @ExplicitNull public var reason: String?

    public init(
        number: Int, section: String, title: String, dictionary: PlistValue, result: Result, reason: String? = nil
    ) {
        self.number = number
        self.section = section
        self.title = title
        self.dictionary = dictionary
        self.result = result
        self.reason = reason
    }
}

/// The least-permissive `NSExceptionDomains` entry that makes the default load pass.
public struct MinimalException: Codable, Sendable, Equatable {
    public enum Status: String, Codable, Sendable, Equatable {
        /// The default configuration already passes.
        case noneNeeded = "none-needed"
        /// `dictionary` makes it pass.
        case exception
        /// No `NSExceptionDomains` entry can make it pass (e.g. an untrusted certificate).
        case impossible
        /// The scan could not tell.
        case unknown
    }

    public var status: Status
    /// The `NSExceptionDomains` key: the URL's host.
    public var domain: String
    /// The entry's dictionary, plist-typed; nil unless `status` is `exception`.
    @ExplicitNull public var dictionary: PlistValue?
    /// A ready-to-paste `<key>host</key><dict>…</dict>` fragment; nil unless `status` is `exception`.
    @ExplicitNull public var plist: String?
    /// Why this entry (what each key relaxes), or why none can help.
    public var reason: String

    public init(status: Status, domain: String, dictionary: PlistValue? = nil, plist: String? = nil, reason: String) {
        self.status = status
        self.domain = domain
        self.dictionary = dictionary
        self.plist = plist
        self.reason = reason
    }
}
