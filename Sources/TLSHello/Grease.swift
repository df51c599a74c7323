/// GREASE values (RFC 8701): reserved codepoints a client sprinkles into its hello so that servers that choke on
/// unknown values are found early. Apple clients send them from iOS 14 on, one value per slot, chosen per connection.
package struct GreaseValues: Sendable, Hashable {
    /// In cipher_suites.
    package var cipher: UInt16
    /// In supported_groups and key_share (one value for both, as BoringSSL does).
    package var group: UInt16
    /// The first GREASE extension's type (empty body).
    package var extension1: UInt16
    /// The second GREASE extension's type (one zero byte of body); never equal to ``extension1``.
    package var extension2: UInt16
    /// In supported_versions.
    package var version: UInt16

    /// Fixed values (tests, and a hello rebuilt from a capture).
    package init(cipher: UInt16, group: UInt16, extension1: UInt16, extension2: UInt16, version: UInt16) {
        self.cipher = cipher
        self.group = group
        self.extension1 = extension1
        self.extension2 = extension2
        self.version = version
    }

    /// The 16 values RFC 8701 reserves: 0x0A0A, 0x1A1A, … 0xFAFA.
    package static let reserved: [UInt16] = (0..<16).map { UInt16($0) << 12 | 0x0A00 | UInt16($0) << 4 | 0x0A }

    /// Whether `value` is one of RFC 8701's reserved values.
    package static func isGrease(_ value: UInt16) -> Bool { value & 0x0F0F == 0x0A0A && value >> 8 == value & 0xFF }

    /// Values drawn at random, as a client does per connection.
    package static func random() -> GreaseValues {
        var generator = SystemRandomNumberGenerator()
        return random(using: &generator)
    }

    /// Values drawn from `generator` (a seeded generator gives the same values every time).
    package static func random<G: RandomNumberGenerator>(using generator: inout G) -> GreaseValues {
        let extension1 = reserved.randomElement(using: &generator)!
        var extension2 = reserved.randomElement(using: &generator)!
        if extension2 == extension1 { extension2 ^= 0x1010 }  // still a GREASE value, never the same extension twice
        return GreaseValues(
            cipher: reserved.randomElement(using: &generator)!, group: reserved.randomElement(using: &generator)!,
            extension1: extension1, extension2: extension2, version: reserved.randomElement(using: &generator)!)
    }
}
