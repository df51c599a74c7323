import ATSCheckKit
import Foundation
import FuzzDriver
import Judging

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzBaseline(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzBaseline(bytes, count) } }
}

/// Baselines as YAML and as JSON.
func fuzzBaseline(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    guard let text = String(data: Data(bytes: bytes, count: count), encoding: .utf8) else { return 0 }
    for file in ["fuzz.yml", "fuzz.json"] {
        if let baseline = try? Baseline.parse(text: text, file: file) {
            for waiver in baseline.waivers { _ = waiver.problem }
        }
    }
    return 0
}
