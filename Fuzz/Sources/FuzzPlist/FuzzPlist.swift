import ATSPolicy
import Foundation
import FuzzDriver
import Reporting
import TLSModel

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzPlist(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzPlist(bytes, count) } }
}

/// The plist reader (XML, binary, OpenStep), the line index, the linter and the policy explainer.
func fuzzPlist(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    guard let document = try? PlistDocument.parse(data: data, file: "fuzz.plist") else { return 0 }
    let findings = PlistLinter.lint(document)
    _ = ScanTextRenderer().render(ScanReport(endpoints: [], findings: findings))
    _ = PolicyExplainer.explain(dictionary: document.atsDictionary ?? [:])
    return 0
}
