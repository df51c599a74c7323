import Foundation

/// An Apple OS release in iOS-family numbering (iOS, iPadOS, tvOS, visionOS share it; macOS 10.11 ≈ 9,
/// 10.12 ≈ 10, 10.15 ≈ 13, 12.3 ≈ 15.4, 14 ≈ 17, 26.4 ≈ 26.4), whose ATS and trust rules apply
/// (`docs/apple-rules.md` §0 input `V`).
public struct AppleOSVersion: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    public var major: Int
    public var minor: Int
    public var patch: Int

    public init(_ major: Int, _ minor: Int = 0, _ patch: Int = 0) {
        self.major = major
        self.minor = minor
        self.patch = patch
    }

    /// Parses `"9"`, `"15.4"`, `"26.4.1"`. Releases before 9 (no ATS) and after the newest known
    /// major are refused, so a typo cannot silently select the wrong rules.
    /// - Returns: nil when the text is not such a version.
    public init?(string: String) {
        guard let parsed = Self.components(string), parsed.allSatisfy({ $0 < 1000 }) else { return nil }
        self.init(parsed[0], parsed[1], parsed[2])
        guard isKnownRelease else { return nil }
    }

    /// Parses any `x`, `x.y` or `x.y.z` of decimal digits, known release or not, for comparisons
    /// (an Info.plist's `MinimumOSVersion`, `--deployment-target`): `8.0` and `19.2` parse here but
    /// not with ``init(string:)``.
    /// - Returns: nil when the text is not one to three dot-separated decimal numbers.
    public init?(anyRelease text: String) {
        guard let parsed = Self.components(text) else { return nil }
        self.init(parsed[0], parsed[1], parsed[2])
    }

    /// One to three dot-separated runs of ASCII digits (no sign), padded to three with zeros.
    private static func components(_ text: String) -> [Int]? {
        let parts = text.trimmingCharacters(in: .whitespaces).split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        var numbers: [Int] = []
        for part in parts {
            guard !part.isEmpty, part.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(part) else { return nil }
            numbers.append(n)
        }
        while numbers.count < 3 { numbers.append(0) }
        return numbers
    }

    /// Whether the major release exists and atscheck knows its rules (a major of ``AppleOSEra/all``: 9–18, 26).
    public var isKnownRelease: Bool { Self.knownMajors.contains(major) }

    /// iOS majors that exist and atscheck knows (iOS skipped 19–25 and went from 18 to 26).
    static let knownMajors: Set<Int> = Set(AppleOSEra.all.map(\.version.major))

    /// The newest release whose rules atscheck knows (``AppleOSEra/newest``); the default of `--os-version`.
    public static let newest = AppleOSEra.newest.version

    /// One value per era in which the rules differ (``AppleOSEra/judgedEras``), for `--help`.
    public static let supportedValues: [String] = AppleOSEra.judgedEras.map(\.label)

    public var description: String {
        if patch != 0 { return "\(major).\(minor).\(patch)" }
        return "\(major).\(minor)"
    }

    public static func < (lhs: AppleOSVersion, rhs: AppleOSVersion) -> Bool {
        (lhs.major, lhs.minor, lhs.patch) < (rhs.major, rhs.minor, rhs.patch)
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let version = AppleOSVersion(string: text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown Apple OS version \(text)")
        }
        self = version
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
