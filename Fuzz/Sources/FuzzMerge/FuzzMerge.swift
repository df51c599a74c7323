import Foundation
import FuzzDriver
import Judging

@testable import ATSCheckKit

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzMerge(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzMerge(bytes, count) } }
}

/// `atscheck merge` input: the bytes as a shard or whole report (`ReportFile`, the walk and the piece-by-piece
/// decoding), then merged alone, with itself (a duplicate to refuse) and the exit status of what merged.
/// Needs `-enable-testing` (the reader is internal to ATSCheckKit); `make fuzz` passes it.
func fuzzMerge(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    guard let file = try? ReportFile.parse(Data(bytes: bytes, count: count), file: "fuzz.json") else { return 0 }
    for reports in [[file.report], [file.report, file.report]] {
        guard let merged = try? ReportMerge.merge(reports, names: reports.indices.map { "shard-\($0).json" }) else {
            continue
        }
        _ = ExitStatus.of(merged)
        _ = ExitStatus.reason(for: merged)
    }
    return 0
}
