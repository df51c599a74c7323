import Foundation
import TLSModel

@testable import ATSPolicy

/// Builders for plist fixtures, made in-process per test.
enum PlistFixtures {
    static let header = """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        """

    /// An XML plist whose root element is `body` (header on lines 1–3, body from line 4).
    static func xml(_ body: String) -> Data { Data((header + "\n" + body + "\n</plist>\n").utf8) }

    /// A whole Info.plist whose NSAppTransportSecurity dictionary holds `atsBody`.
    static func infoPlist(_ atsBody: String) -> Data {
        xml(
            "<dict>\n<key>CFBundleIdentifier</key><string>com.example.app</string>\n<key>NSAppTransportSecurity</key>\n<dict>\n\(atsBody)\n</dict>\n</dict>"
        )
    }

    /// Lints an Info.plist holding `atsBody`.
    static func lint(_ atsBody: String, options: PlistLinter.Options = .init()) throws -> [Finding] {
        let doc = try PlistDocument.parse(data: infoPlist(atsBody), file: "Info.plist")
        return PlistLinter.lint(doc, options: options)
    }

    /// A binary plist of a dictionary.
    static func binary(_ dict: [String: Any]) throws -> Data {
        try PropertyListSerialization.data(fromPropertyList: dict, format: .binary, options: 0)
    }

    /// A fake, well-formed SPKI pin (Base64 of 32 bytes that differ, so it is not a placeholder such as `AAAA…=`).
    static func pin(_ byte: UInt8) -> String {
        Data((0..<32).map { UInt8(truncatingIfNeeded: Int(byte) &* 31 &+ $0 &* 7) }).base64EncodedString()
    }
}
