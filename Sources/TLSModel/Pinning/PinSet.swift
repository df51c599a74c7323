import Foundation

/// A TrustKit-model pin set: per domain, Base64 SPKI-SHA256 pins and the policy around them.
///
/// It is both the pin-set file format of `Pins/*.json` / `*.yaml` (documented in `Pins/README.md`) and the
/// decoded form of TrustKit's `TSKConfiguration` Info.plist dictionary (docs/pinning-rules.md §3.1). Keys of
/// ``domains`` are host names as written; lookup rules belong to the evaluator that uses the set.
public struct PinSet: Codable, Sendable, Equatable {
    /// Domain → its pins and policy.
    public var domains: [String: DomainPins]

    /// A pin set.
    /// - Parameter domains: Domain → its pins and policy.
    public init(domains: [String: DomainPins]) {
        self.domains = domains
    }

    /// Every distinct pin of every domain, sorted (for listings and outage checks).
    public var allPins: [String] { Array(Set(domains.values.flatMap(\.pins))).sorted() }
}

/// One domain's entry of a ``PinSet`` (TrustKit's per-domain keys, docs/pinning-rules.md §3.1).
public struct DomainPins: Codable, Sendable, Equatable {
    /// Base64 SHA-256 of the DER SubjectPublicKeyInfo (`TSKPublicKeyHashes`), as written.
    public var pins: [String]
    /// Whether subdomains at any depth are covered (`TSKIncludeSubdomains`, default false).
    public var includeSubdomains: Bool
    /// Whether a connection with no matching pin is blocked (`TSKEnforcePinning`, default true); with false
    /// it is allowed and only reported.
    public var enforce: Bool
    /// `YYYY-MM-DD` (UTC midnight) from which TrustKit treats the domain as not pinned (`TSKExpirationDate`);
    /// nil for none. An unparsable value means no expiry, as in TrustKit.
    public var expirationDate: String?
    /// The domain is a subdomain excluded from its parent's policy (`kSKExcludeSubdomainFromParentPolicy`,
    /// default false); such an entry has no pins.
    public var excludeSubdomainFromParentPolicy: Bool

    /// A domain entry; defaults are TrustKit's.
    /// - Parameters:
    ///   - pins: Base64 SPKI-SHA256 pins.
    ///   - includeSubdomains: Cover subdomains at any depth.
    ///   - enforce: Block when no pin matches.
    ///   - expirationDate: `YYYY-MM-DD` from which pinning is off.
    ///   - excludeSubdomainFromParentPolicy: This subdomain is not pinned.
    public init(
        pins: [String], includeSubdomains: Bool = false, enforce: Bool = true, expirationDate: String? = nil,
        excludeSubdomainFromParentPolicy: Bool = false
    ) {
        self.pins = pins
        self.includeSubdomains = includeSubdomains
        self.enforce = enforce
        self.expirationDate = expirationDate
        self.excludeSubdomainFromParentPolicy = excludeSubdomainFromParentPolicy
    }

    private enum CodingKeys: String, CodingKey {
        case pins, includeSubdomains, enforce, expirationDate, excludeSubdomainFromParentPolicy
    }

    /// Decodes an entry; every key but `pins` may be missing (TrustKit's defaults apply), and `pins` may be
    /// missing on an exclusion entry.
    /// - Throws: A `DecodingError` when a key holds the wrong type.
    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        excludeSubdomainFromParentPolicy =
            try c.decodeIfPresent(Bool.self, forKey: .excludeSubdomainFromParentPolicy) ?? false
        pins = try c.decodeIfPresent([String].self, forKey: .pins) ?? []
        includeSubdomains = try c.decodeIfPresent(Bool.self, forKey: .includeSubdomains) ?? false
        enforce = try c.decodeIfPresent(Bool.self, forKey: .enforce) ?? true
        expirationDate = try c.decodeIfPresent(String.self, forKey: .expirationDate)
    }

    /// The instant pinning switches off (UTC midnight of ``expirationDate``), nil when there is none or it
    /// does not parse.
    public var expiration: Date? { expirationDate.flatMap(CalendarDay.date(from:)) }
}

/// Checks on the text of one SPKI-SHA256 pin (docs/pinning-rules.md §7.2 "Pin sanity checks").
public enum SPKIPinText {
    /// Why `pin` is not a usable Base64 SHA-256 pin, or nil when it is one (44 characters decoding to 32 bytes).
    /// - Parameter pin: The pin as written.
    /// - Returns: A short reason a person can act on, or nil.
    public static func problem(_ pin: String) -> String? {
        if pin.count == 64, pin.allSatisfy(\.isHexDigit) {
            return
                "a hex digest, not Base64: pins are the Base64 of the 32-byte SHA-256 of the DER SubjectPublicKeyInfo"
        }
        if pin.contains(where: \.isWhitespace) { return "contains whitespace" }
        if pin.contains("-") || pin.contains("_") { return "base64url characters (- or _): use standard Base64" }
        guard let bytes = Data(base64Encoded: pin) else { return "not valid Base64" }
        if bytes.count == 64 {
            return "Base64 of a hex digest (88 characters): hash the SPKI and Base64 the raw 32 bytes"
        }
        if bytes.count != 32 { return "decodes to \(bytes.count) bytes, not the 32 of a SHA-256 digest" }
        return nil
    }
}
