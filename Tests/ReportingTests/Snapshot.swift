import Foundation
import Testing

/// Golden files under `Tests/ReportingTests/Snapshots`.
enum Snapshot {
    static let directory = ReportFixtures.packageRoot.appendingPathComponent("Tests/ReportingTests/Snapshots")

    /// Compares `text` with the golden file `name`; `ATSCHECK_RECORD_SNAPSHOTS=1` rewrites it instead (and then
    /// fails, so a recording run is never mistaken for a passing one).
    static func assert(_ text: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let url = directory.appendingPathComponent(name)
        if ProcessInfo.processInfo.environment["ATSCHECK_RECORD_SNAPSHOTS"] == "1" {
            try Data(text.utf8).write(to: url)
            Issue.record(
                "recorded \(url.path); run again without ATSCHECK_RECORD_SNAPSHOTS", sourceLocation: sourceLocation)
            return
        }
        let golden = try String(contentsOf: url, encoding: .utf8)
        #expect(
            text == golden, "differs from \(url.path); record with ATSCHECK_RECORD_SNAPSHOTS=1",
            sourceLocation: sourceLocation)
    }
}
