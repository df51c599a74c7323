import TLSModel

/// An `NSExceptionDomains` key containing `/`: an IPv4 or IPv6 CIDR range (iOS 17 / macOS 14+, §3.4, §4.4).
///
/// Missing IPv4 octets are padded with zeros (`10/8` is `10.0.0.0/8`); interface-scoped forms
/// (`fe80::%en0/64`) are not supported; an invalid key never matches.
package struct CIDRRange: Hashable, Sendable {
    package var network: IPAddress
    package var prefixLength: Int

    /// Parses `192.168.0.0/16`, `10/8`, `2001:db8::/32`.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 2, !parts[1].isEmpty, parts[1].allSatisfy({ $0.isASCII && $0.isNumber }),
            let length = Int(parts[1]), !parts[0].contains("%")
        else { return nil }
        var address = String(parts[0])
        if !address.contains(":") {
            var octets = address.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
            guard (1...4).contains(octets.count) else { return nil }
            while octets.count < 4 { octets.append("0") }
            address = octets.joined(separator: ".")
        }
        guard let ip = IPAddress(literal: address), length <= ip.bytes.count * 8 else { return nil }
        network = ip
        prefixLength = length
    }

    /// Whether `address` is in the range (IPv4 and IPv6 never cross-match).
    package func contains(_ address: IPAddress) -> Bool {
        guard address.bytes.count == network.bytes.count else { return false }
        var remaining = prefixLength
        for (a, b) in zip(address.bytes, network.bytes) {
            if remaining <= 0 { return true }
            let bits = min(8, remaining)
            let mask: UInt8 = bits == 8 ? 0xFF : ~(0xFF >> UInt8(bits))
            if a & mask != b & mask { return false }
            remaining -= bits
        }
        return true
    }
}
