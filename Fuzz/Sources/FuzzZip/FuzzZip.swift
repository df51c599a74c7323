import AppBundle
import Foundation
import FuzzDriver

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzZip(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzZip(bytes, count) } }
}

/// One file per process, rewritten for each input: `AppBundle.open` reads a path (its zip reader works on a file
/// descriptor, with `pread`).
let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("atscheck-fuzz-\(getpid()).ipa")

/// The bytes as an `.ipa`: the zip reader (end records, ZIP64, directory, local headers, inflate, CRC-32), entry
/// paths, links and their loop check, the bundle reader, the Mach-O check and the endpoint harvest. A refusal
/// must be an `AppBundleError`; anything else (a trap, a hang, a leak) is a finding.
func fuzzZip(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    guard (try? Data(bytes: bytes, count: count).write(to: scratch)) != nil else { return 0 }
    do {
        let contents = try AppBundle.open(path: scratch.path)
        let harvest = EndpointHarvester.harvest(contents)
        _ = EndpointListWriter.text(harvest.endpoints, input: "fuzz.ipa", notShown: harvest.notShown)
    } catch is AppBundleError {
        return 0
    } catch {
        fatalError("AppBundle.open threw something other than AppBundleError: \(error)")
    }
    return 0
}
