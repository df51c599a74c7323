import Foundation
import FuzzDriver
import Reporting
import TLSModel

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzProfiles(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzProfiles(bytes, count) } }
}

/// Saved profiles (`--save-profile` output: `[ServerProfile]` or a whole `ScanReport`), then the summary and
/// every renderer over what was decoded.
func fuzzProfiles(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    var endpoints: [EndpointResult] = []
    if let profiles = try? JSONRendering.decoder().decode([ServerProfile].self, from: data) {
        endpoints = profiles.map { EndpointResult(profile: $0) }
    } else if let report = try? JSONRendering.decoder().decode(ScanReport.self, from: data) {
        endpoints = report.endpoints
    } else if let profile = try? JSONRendering.decoder().decode(ServerProfile.self, from: data) {
        endpoints = [EndpointResult(profile: profile)]
    } else {
        return 0
    }
    let report = ScanReport(endpoints: endpoints)
    _ = ScanTextRenderer().render(report)
    _ = MarkdownRenderer.render(report)
    _ = JUnitRenderer.render(report)
    return 0
}
