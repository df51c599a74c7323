import Foundation

/// A certificate of the live path that `atscheck pins extract` recommends pinning.
public struct RecommendedPin: Codable, Sendable, Equatable {
    /// Position in the live path (0 = leaf).
    public var position: Int
    /// `leaf`, `intermediate` or `anchor`.
    public var role: String
    /// Subject, RFC 2253.
    public var subject: String
    /// Base64 SHA-256 of the SubjectPublicKeyInfo (TrustKit, NSPinnedDomains, curl).
    public var spkiSHA256: String
    /// SHA-256 of the DER, lower-case hex (the certificate AFNetworking and Alamofire compare).
    public var sha256: String
    /// End of validity.
    public var notAfter: Date
    /// One line: why this certificate.
    public var why: String

    /// A recommended pin.
    public init(
        position: Int, role: String, subject: String, spkiSHA256: String, sha256: String, notAfter: Date, why: String
    ) {
        self.position = position
        self.role = role
        self.subject = subject
        self.spkiSHA256 = spkiSHA256
        self.sha256 = sha256
        self.notAfter = notAfter
        self.why = why
    }
}

/// A format `atscheck pins extract --format` writes: an open set, as each pinning library declares its own
/// (`PinningLibrary.extractFormats` in `Pinning`); the two below concern no library.
public struct PinMaterialFormat: RawRepresentable, Codable, Hashable, Sendable {
    /// The name on the command line and in reports (`afnetworking`, `curl`).
    public var rawValue: String

    /// A format named `rawValue`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A curl `--pinnedpubkey` argument.
    public static let curl = PinMaterialFormat(rawValue: "curl")
    /// A pin-set JSON file (`Pins/README.md`).
    public static let json = PinMaterialFormat(rawValue: "json")
}

/// One file (or text) of extracted pin material.
public struct PinMaterialFile: Codable, Sendable, Equatable {
    /// Suggested file name.
    public var name: String
    /// Text contents (plist fragments, JSON, a curl argument); nil for binary files.
    public var text: String?
    /// Binary contents (DER certificates); nil for text files.
    public var der: Data?

    /// A file.
    public init(name: String, text: String? = nil, der: Data? = nil) {
        self.name = name
        self.text = text
        self.der = der
    }
}

/// The material for one format.
public struct PinMaterial: Codable, Sendable, Equatable {
    /// The format.
    public var format: PinMaterialFormat
    /// One line: what the files are and how the app uses them.
    public var summary: String
    /// The files to write.
    public var files: [PinMaterialFile]

    /// Material for a format.
    public init(format: PinMaterialFormat, summary: String, files: [PinMaterialFile]) {
        self.format = format
        self.summary = summary
        self.files = files
    }
}

/// What to pin for a live path, and why (docs/pinning-rules.md §6, §7.3).
public struct PinRecommendation: Codable, Sendable, Equatable {
    /// The host the path was served for.
    public var host: String
    /// The pin the configuration relies on.
    public var primary: RecommendedPin
    /// A second pin from the same path that keeps working when the primary's certificate changes; nil when
    /// the path has a single certificate.
    @ExplicitNull public var backup: RecommendedPin?
    /// One paragraph: why these two, and what they do not cover.
    public var reason: String
    /// Warnings about the path (a self-signed leaf, keys TrustKit cannot hash, …).
    public var findings: [Finding]

    /// A recommendation.
    public init(host: String, primary: RecommendedPin, backup: RecommendedPin?, reason: String, findings: [Finding]) {
        self.host = host
        self.primary = primary
        self.backup = backup
        self.reason = reason
        self.findings = findings
    }
}
