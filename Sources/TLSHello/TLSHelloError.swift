/// Why the engine could not do what was asked: an extensible struct, equal on its code.
package struct TLSHelloError: Error, Hashable, CustomStringConvertible {
    /// The kind of failure.
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        private let name: String
        private init(_ name: String) { self.name = name }
        package var description: String { name }

        /// A key share was asked for a group the engine has no key agreement for.
        package static let unsupportedKeyShare = Code("unsupportedKeyShare")
        /// A profile cannot be encoded (a field too long, an injected random of the wrong size).
        package static let invalidProfile = Code("invalidProfile")
        /// The server's key share is not a valid key or ciphertext for its group.
        package static let badServerShare = Code("badServerShare")
        /// swift-crypto refused an operation.
        package static let crypto = Code("crypto")
    }

    /// The kind.
    package let code: Code
    /// What happened, for a person.
    package let reason: String
    /// Where it was thrown.
    package let location: String

    init(_ code: Code, _ reason: String, file: String = #fileID, line: Int = #line) {
        self.code = code
        self.reason = reason
        location = "\(file):\(line)"
    }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.code == rhs.code }
    package func hash(into hasher: inout Hasher) { hasher.combine(code) }
    package var description: String { "\(code): \(reason)" }
}
