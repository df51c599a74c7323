import Foundation
import FuzzDriver
@testable import CertificateTrust

/// libFuzzer's callback by its C name, for whichever `main` the link keeps.
@_cdecl("LLVMFuzzerTestOneInput")
public func testOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt { fuzzCertificate(bytes, count) }

@main
enum Main {
    static func main() { runFuzzer { bytes, count in fuzzCertificate(bytes, count) } }
}

/// Certificate input: the bytes as DER, and as a PEM file (what `--ca-file` reads), with every fact read.
/// Needs `-enable-testing` (the parser is internal to CertificateTrust); `make fuzz` passes it.
func fuzzCertificate(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let bytes else { return 0 }
    let der = Array(UnsafeBufferPointer(start: bytes, count: count))
    if let certificate = try? X509Certificate(der: der) {
        _ = certificate.facts()
        _ = certificate.spkiDER()
    }
    let path = pemPath
    guard FileManager.default.createFile(atPath: path, contents: Data(der)) else { return 0 }
    if let certificates = try? X509Certificate.loadPEMFile(path) {
        for certificate in certificates { _ = certificate.facts() }
    }
    return 0
}

/// One scratch file per fuzzing process.
private let pemPath = NSTemporaryDirectory() + "atscheck-fuzz-\(getpid()).pem"
