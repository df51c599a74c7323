import Foundation

/// SHA-256 of downloaded bytes, for their provenance (`atscheck data update`: the manifest and the CI cache key).
package enum ContentDigest {
    /// SHA-256 of `data`, lower-case hex.
    package static func sha256(_ data: Data) -> String { Hex.string(Digest.sha256([UInt8](data))) }
}
