import Foundation
import Testing

@testable import TLSHello

/// The RFC 7919 primes the reader names, checked against the ones OpenSSL ships (a source we did not write).
@Suite("ffdhe primes")
struct FFDHEPrimeTests {
    /// The prime of `group:ffdheN` as `openssl genpkey` writes it, read back with `openssl asn1parse`.
    static func opensslPrime(_ bits: Int) throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("ffdhe-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let pem = folder.appendingPathComponent("params.pem").path
        _ = try run(["genpkey", "-genparam", "-algorithm", "DH", "-pkeyopt", "group:ffdhe\(bits)", "-out", pem])
        let dump = try run(["asn1parse", "-in", pem])
        // The first INTEGER of DHParameter is p: "... prim: INTEGER :FFFFFFFF...".
        let line = try #require(dump.split(separator: "\n").first { $0.contains("INTEGER") })
        let hex = try #require(line.split(separator: ":").last)
        return try #require([UInt8](hex: String(hex)))
    }

    static func run(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["openssl"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0, "openssl \(arguments.joined(separator: " "))")
        return output
    }

    @Test(
        "a ServerKeyExchange with OpenSSL's ffdhe prime is named",
        arguments: [(2048, UInt16(0x0100)), (3072, 0x0101), (4096, 0x0102), (6144, 0x0103), (8192, 0x0104)])
    func named(bits: Int, group: UInt16) throws {
        let prime = try Self.opensslPrime(bits)
        #expect(prime.count * 8 == bits)
        let body = Wire.u16(prime.count) + prime + Wire.u16(1) + [2] + Wire.u16(1) + [9]
        let message = Wire.handshake(12, body)
        #expect(try ServerKeyExchangeParser.parse(message, suite: 0x009E) == .dhe(primeBits: bits, ffdheGroup: group))
        // One bit off is another prime, and is not named.
        var other = prime
        other[other.count / 2] ^= 0x10
        let changed = Wire.handshake(12, Wire.u16(other.count) + other + Wire.u16(1) + [2] + Wire.u16(1) + [9])
        #expect(try ServerKeyExchangeParser.parse(changed, suite: 0x009E) == .dhe(primeBits: bits, ffdheGroup: nil))
    }
}
