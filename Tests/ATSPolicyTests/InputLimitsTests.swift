import Foundation
import Testing

@testable import ATSPolicy

/// Input files are read within their documented limits (docs/reliability.md, "Input size limits").
@Suite("InputLimits and BoundedFileReader")
struct InputLimitsTests {
    static func temporary(_ bytes: Int) throws -> String {
        let path = NSTemporaryDirectory() + "atscheck-limit-\(UUID().uuidString)"
        try Data(repeating: 0x61, count: bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("a file at the limit is read whole; one byte more is refused as too large")
    func limit() throws {
        let at = try Self.temporary(3000)
        defer { try? FileManager.default.removeItem(atPath: at) }
        #expect(try BoundedFileReader.read(path: at, limit: 3000).count == 3000)
        let over = try Self.temporary(3001)
        defer { try? FileManager.default.removeItem(atPath: over) }
        #expect(throws: BoundedFileReader.Failure.tooLarge(limit: 3000)) {
            try BoundedFileReader.read(path: over, limit: 3000)
        }
    }

    @Test("a device is refused at once as not a regular file, before a byte is read (issue 25, row 9)")
    func device() {
        #expect(throws: BoundedFileReader.Failure.notRegular(kind: "a character device")) {
            try BoundedFileReader.read(path: "/dev/zero", limit: 1 << 20)
        }
        #expect(
            BoundedFileReader.Failure.notRegular(kind: "a FIFO (named pipe)").reason
                == "a FIFO (named pipe), not a regular file")
    }

    @Test("missing files and directories are refused with their reasons")
    func missingAndDirectory() {
        #expect(throws: BoundedFileReader.Failure.missing) {
            try BoundedFileReader.read(path: "/nonexistent/x", limit: 10)
        }
        #expect(throws: BoundedFileReader.Failure.notRegular(kind: "a directory")) {
            try BoundedFileReader.read(path: NSTemporaryDirectory(), limit: 10)
        }
        #expect(BoundedFileReader.Failure.tooLarge(limit: 8 << 20).reason == "larger than 8 MB limit")
        #expect(BoundedFileReader.Failure.tooLarge(limit: 3000).reason == "larger than 3000-byte limit")
    }

    @Test("the documented limits")
    func documented() {
        #expect(InputLimits.plistBytes == 8 << 20)
        #expect(InputLimits.endpointTextBytes == 64 << 20)
        #expect(InputLimits.endpointStructuredBytes == 4 << 20)
        #expect(InputLimits.baselineBytes == 4 << 20)
        #expect(InputLimits.endpointLineBytes == 2048)
    }

    @Test("PlistDocument.parse refuses bytes over the plist limit with FILE: larger than 8 MB limit")
    func plistParse() {
        let error = #expect(throws: PlistError.self) {
            try PlistDocument.parse(data: Data(count: InputLimits.plistBytes + 1), file: "big.plist")
        }
        #expect(error?.code == .tooLarge)
        #expect(error?.description == "big.plist: larger than 8 MB limit")
    }
}
