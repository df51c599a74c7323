import ATSCheckKit
import Judging
import Foundation
import FuzzDriver
import Judging

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzEndpoints(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzEndpoints(bytes, count) } }
}

/// Endpoint lists in every format (text, YAML, JSON) and the format guess.
func fuzzEndpoints(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    guard let text = String(data: Data(bytes: bytes, count: count), encoding: .utf8) else { return 0 }
    _ = try? EndpointList.parse(text: text, file: "fuzz.txt", format: nil)
    for format in [EndpointList.Format.text, .yaml, .json] {
        _ = try? EndpointList.parse(text: text, file: "fuzz", format: format)
    }
    return 0
}
