/// An optional contract field that is always written: `nil` encodes as an explicit JSON `null`.
///
/// The JSON contract (docs/json-output.md) spells "could not tell" as `null` (`"supported": null`,
/// `"error": null`, `"verifyError": null`), but synthesised `Codable` omits a nil optional. Wrapping the
/// stored property keeps synthesised coding and still writes the key: the wrapper is not an `Optional`, so
/// the synthesised `encode(to:)` always calls `encode(_:forKey:)`, and the wrapper encodes nil as
/// `encodeNil()`. Decoding accepts a missing key and `null` alike (see the `KeyedDecodingContainer`
/// extension below).
///
/// Optional fields that are *omitted* when nil (`probeLibrary`, `scheme`, `reason`, …) stay plain optionals.
@propertyWrapper
public struct ExplicitNull<Value: Codable>: Codable {
    /// The field's value; nil encodes as `null`.
    public var wrappedValue: Value?

    /// Wraps a value.
    /// - Parameter wrappedValue: The value, or nil for "could not tell".
    public init(wrappedValue: Value?) {
        self.wrappedValue = wrappedValue
    }

    /// Decodes `null` as nil, anything else as a `Value`.
    /// - Throws: A `DecodingError` when the value is neither null nor a `Value`.
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        wrappedValue = container.decodeNil() ? nil : try container.decode(Value.self)
    }

    /// Encodes the value, or `null`.
    /// - Throws: An `EncodingError` from the value's own encoding.
    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        if let wrappedValue {
            try container.encode(wrappedValue)
        } else {
            try container.encodeNil()
        }
    }
}

extension ExplicitNull: Equatable where Value: Equatable {}
extension ExplicitNull: Hashable where Value: Hashable {}
extension ExplicitNull: Sendable where Value: Sendable {}

extension KeyedDecodingContainer {
    /// Decodes an ``ExplicitNull`` field that may be missing (saved profiles written before the field
    /// existed) or `null`; both read as nil. Synthesised `init(from:)` picks this overload over the generic one.
    /// - Throws: A `DecodingError` when the value is present and not a `Value`.
    public func decode<Value>(_ type: ExplicitNull<Value>.Type, forKey key: Key) throws -> ExplicitNull<Value> {
        try decodeIfPresent(type, forKey: key) ?? ExplicitNull(wrappedValue: nil)
    }
}
