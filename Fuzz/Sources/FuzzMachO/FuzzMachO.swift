import Foundation
import FuzzDriver
@testable import AppBundle

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzMachO(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzMachO(bytes, count) } }
}

/// The bytes as an executable and as a text file: the Mach-O load commands and sections (its merged ranges must be
/// sorted, disjoint and inside the file), printable runs, the URL and host extractor, and the collector with caps
/// small enough to be reached. Needs `-enable-testing` (these are internal to AppBundle); `make fuzz` passes it.
func fuzzMachO(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let data = Data(bytes: bytes, count: count)
    if case .machO(let file) = data.withUnsafeBytes({ MachOFile.parse($0) }) {
        var end = 0
        for range in file.stringRanges {
            guard range.lowerBound >= end, range.upperBound <= count, !range.isEmpty else {
                fatalError("string ranges not sorted, disjoint and inside the \(count)-byte file: \(file.stringRanges)")
            }
            end = range.upperBound
        }
    }
    for isExecutable in [true, false] {
        var collector = EndpointCollector(limits: HarvestLimits(maxEndpoints: 4, maxSourcesPerEndpoint: 2))
        let scanned = EndpointHarvester.matches(in: data, isExecutable: isExecutable, filter: .default) { match, place in
            collector.add(
                kind: match.endpointKind, host: match.host, port: match.port, example: match.text,
                source: place.source(in: "fuzz"))
        }
        guard scanned <= count else { fatalError("scanned \(scanned) bytes of a \(count)-byte file") }
        let harvest = collector.finish()
        guard harvest.endpoints.count <= 4, harvest.endpoints.allSatisfy({ $0.sources.count <= 2 }) else {
            fatalError("the caps were not kept: \(harvest)")
        }
    }
    return 0
}
