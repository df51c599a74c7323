import Foundation
import Judging
import TLSModel

/// One shard of a split endpoint list: `--shard I/N`, I in 1…N.
///
/// An endpoint's shard follows from a stable hash of its identity (``Shard/identity(of:resolve:sni:)``), never
/// from its position: reordering a list moves no endpoint between shards, and the same endpoint lands in the
/// same shard in every run, on every machine.
public struct Shard: Sendable, Equatable, Codable, CustomStringConvertible {
    /// This shard, 1…``count``.
    public var index: Int
    /// How many shards the list is split into (≥ 1).
    public var count: Int

    /// - Throws: ``ShardError`` unless 1 ≤ index ≤ count.
    public init(index: Int, count: Int) throws {
        guard count >= 1, (1...count).contains(index) else {
            throw ShardError(text: "\(index)/\(count)", reason: "I must be in 1…N and N at least 1")
        }
        self.index = index
        self.count = count
    }

    /// Parses `I/N`: exactly two plain decimal numbers, 1 ≤ I ≤ N, with no sign, space or leading zero.
    ///
    /// Only the canonical spelling is accepted, so that one split has one name in every job of a CI matrix and
    /// in the shard reports (`+1/2`, ` 1/2`, `01/2` and `1/2.0` are refused rather than read as `1/2`).
    /// - Throws: ``ShardError`` when the text is not in that form or I is not in 1…N.
    public init(parsing text: String) throws {
        let parts = text.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard parts.count == 2, let index = Self.plainDecimal(parts[0]), let count = Self.plainDecimal(parts[1]) else {
            throw ShardError(
                text: text, reason: "expected I/N in plain decimal, e.g. 2/4 (no sign, spaces or leading zeros)")
        }
        try self.init(index: index, count: count)
    }

    /// The value of 1 to 9 ASCII digits without a leading zero (`0` alone is read, and then refused as out of range).
    static func plainDecimal(_ digits: Substring.UTF8View) -> Int? {
        guard (1...9).contains(digits.count), digits.allSatisfy({ (0x30...0x39).contains($0) }) else { return nil }
        guard digits.first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        return digits.reduce(0) { $0 * 10 + Int($1 - 0x30) }
    }

    /// `I/N`.
    public var description: String { "\(index)/\(count)" }

    /// The identity an endpoint is sharded by: `scheme://host:port` (host lower-cased, brackets around IPv6)
    /// plus `resolve` and `sni` where given.
    public static func identity(of target: Target, resolve: String? = nil, sni: String? = nil) -> String {
        var identity = "\(target.scheme.lowercased())://\(target.hostPort.lowercased())"
        if let resolve { identity += " resolve=\(resolve.lowercased())" }
        if let sni { identity += " sni=\(sni.lowercased())" }
        return identity
    }

    /// The shard (1…count) of an identity: FNV-1a (64 bit) over its UTF-8, finished with a SplitMix64 mix so
    /// that near-identical names spread evenly, modulo `count`. The same in every process and release.
    public static func shardIndex(of identity: String, count: Int) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in identity.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01b3
        }
        hash ^= hash >> 30
        hash = hash &* 0xbf58_476d_1ce4_e5b9
        hash ^= hash >> 27
        hash = hash &* 0x94d0_49bb_1331_11eb
        hash ^= hash >> 31
        return Int(hash % UInt64(max(1, count))) + 1
    }

    /// Whether an endpoint with this identity belongs to this shard.
    public func contains(identity: String) -> Bool { Self.shardIndex(of: identity, count: count) == index }

    /// Whether a command-line target belongs to this shard.
    public func contains(_ target: Target) -> Bool { contains(identity: Self.identity(of: target)) }

    /// Whether an endpoint-list entry belongs to this shard.
    public func contains(_ entry: EndpointEntry) -> Bool {
        contains(identity: Self.identity(of: entry.target, resolve: entry.resolve, sni: entry.sni))
    }
}

/// A `--shard` value that is not `I/N` with 1 ≤ I ≤ N (a usage error).
public struct ShardError: Error, CustomStringConvertible, Equatable {
    /// The text given.
    public var text: String
    /// Why it is refused.
    public var reason: String
    public var description: String { "invalid shard '\(text)': \(reason)" }
}
