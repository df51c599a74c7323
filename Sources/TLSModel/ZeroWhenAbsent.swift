/// A count added to the JSON contract after profiles were first saved: always written, and read as 0
/// from a saved profile that predates it (synthesised `Codable` would reject the missing key).
@propertyWrapper
public struct ZeroWhenAbsent: Codable, Sendable, Hashable {
    /// The count.
    public var wrappedValue: Int

    /// Wraps a count.
    /// - Parameter wrappedValue: The count.
    public init(wrappedValue: Int) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes the count.
    /// - Throws: A `DecodingError` when the value is not an integer.
    public init(from decoder: Decoder) throws {
        wrappedValue = try decoder.singleValueContainer().decode(Int.self)
    }

    /// Encodes the count as a plain integer.
    /// - Throws: An `EncodingError` from the encoder.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(wrappedValue)
    }
}

extension KeyedDecodingContainer {
    /// Decodes a ``ZeroWhenAbsent`` count that may be missing (a profile saved before it existed): 0.
    /// Synthesised `init(from:)` picks this overload over the generic one.
    /// - Throws: A `DecodingError` when the value is present and not an integer.
    public func decode(_ type: ZeroWhenAbsent.Type, forKey key: Key) throws -> ZeroWhenAbsent {
        try decodeIfPresent(type, forKey: key) ?? ZeroWhenAbsent(wrappedValue: 0)
    }
}
