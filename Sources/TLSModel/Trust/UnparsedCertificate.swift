import Foundation

/// A certificate that was served (or fetched for a chain) and that OpenSSL could not read: reported, never dropped,
/// so a report never judges a shorter chain than the one the server sent without saying so.
public struct UnparsedCertificate: Codable, Sendable, Equatable {
    /// Where the bytes came from.
    public enum Origin: String, Codable, Sendable, Equatable {
        /// The chain the server sent in its Certificate message (or the chain a profile or file gave).
        case served
        /// An issuer downloaded from a caIssuers URL.
        case fetched
    }

    /// Where the bytes came from.
    public var origin: Origin
    /// The certificate's position among its origin's, 1-based: in the served chain, 1 is the leaf.
    public var position: Int
    /// The parser's reason (OpenSSL's error strings).
    public var reason: String
    /// SHA-256 of the bytes, lower-case hex.
    public var sha256: String
    /// The bytes as received, so that the report can be re-read and judged again.
    public var der: Data

    /// - Parameters:
    ///   - origin: Where the bytes came from.
    ///   - position: 1-based position among the origin's certificates.
    ///   - reason: Why the parser refused them.
    ///   - sha256: SHA-256 of `der`, lower-case hex.
    ///   - der: The bytes as received.
    public init(origin: Origin, position: Int, reason: String, sha256: String, der: Data) {
        self.origin = origin
        self.position = position
        self.reason = reason
        self.sha256 = sha256
        self.der = der
    }
}
