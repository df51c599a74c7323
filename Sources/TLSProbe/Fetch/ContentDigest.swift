import Foundation

/// SHA-256 of downloaded bytes, for their provenance (`atscheck data update`: the manifest and the CI cache key).
public enum ContentDigest {
    /// SHA-256 of `data`, lower-case hex.
    public static func sha256(_ data: Data) -> String { Hex.string(Digest.sha256([UInt8](data))) }
}
