import Foundation
import Testing

@testable import ATSPolicy

/// `.xcconfig` files: assignments, `$(inherited)`, includes, comments.
@Suite("XCConfigFile")
struct XCConfigFileTests {
    static func folder(_ files: [String: String]) throws -> URL {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("xcconfig-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in files { try Data(text.utf8).write(to: dir.appendingPathComponent(name)) }
        return dir
    }

    @Test("assignments, includes (optional ones too), $(inherited), comments and conditions")
    func reads() throws {
        let dir = try Self.folder([
            "Base.xcconfig": "API_HOST = base.example.com\nFLAGS = a\n",
            "App.xcconfig": """
            #include "Base.xcconfig"
            #include? "Missing.xcconfig"
            // a comment
            API_HOST = api.example.com // trailing comment
            FLAGS = $(inherited) b
            API_HOST[sdk=iphonesimulator*] = localhost
            URL = https:/$()/x
            """,
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        let settings = try XCConfigFile.load(path: dir.appendingPathComponent("App.xcconfig").path)
        #expect(settings.values["API_HOST"] == "api.example.com")
        #expect(settings.values["FLAGS"] == "a b")
        #expect(settings.expand(settings.values["URL"]!).text == "https://x")
    }

    @Test("a missing file or include, or a line that is no assignment, fails naming the file and line")
    func failures() throws {
        let dir = try Self.folder([
            "Bad.xcconfig": "A = 1\nnot an assignment\n", "Inc.xcconfig": "#include \"Nope.xcconfig\"\n",
        ])
        defer { try? FileManager.default.removeItem(at: dir) }
        #expect(throws: XCConfigFile.Failure.self) { try XCConfigFile.load(path: dir.appendingPathComponent("x").path) }
        #expect {
            try XCConfigFile.load(path: dir.appendingPathComponent("Bad.xcconfig").path)
        } throws: { ($0 as? XCConfigFile.Failure)?.line == 2 }
        #expect(throws: XCConfigFile.Failure.self) {
            try XCConfigFile.load(path: dir.appendingPathComponent("Inc.xcconfig").path)
        }
    }
}
