import AppBundleFixtures
import Foundation
import TLSTestSupport

// Builds the demo app bundle of Examples/app: `Demo.app`, `Demo.ipa` and `Demo.xcarchive` in an output folder.
// usage: atscheck-make-demo-app OUTPUT-FOLDER [CA.pem]
// The pin is the CA given (the demo servers' --write-ca), else the shared test PKI's root.
let arguments = CommandLine.arguments.dropFirst()
guard let output = arguments.first, !output.hasPrefix("-") else {  // `--help` is not a folder to write into
    FileHandle.standardError.write(Data("usage: atscheck-make-demo-app OUTPUT-FOLDER [CA.pem]\n".utf8))
    exit(64)
}
do {
    let der: Data
    if arguments.count > 1 {
        let pem = try String(contentsOfFile: arguments[arguments.startIndex + 1], encoding: .utf8)
        let body = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().first?
            .components(separatedBy: "-----END CERTIFICATE-----").first?.filter { !$0.isWhitespace }
        guard let body, let decoded = Data(base64Encoded: body) else {
            FileHandle.standardError.write(Data("\(arguments[arguments.startIndex + 1]): no PEM certificate\n".utf8))
            exit(65)
        }
        der = decoded
    } else {
        der = TestPKI.shared.root.der
    }
    let folder = URL(fileURLWithPath: output)
    let tree = DemoApp.tree(pinDER: der)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["Demo.app", "Demo.ipa", "Demo.xcarchive"] {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
    try tree.write(to: folder.appendingPathComponent(DemoApp.name))
    try tree.prefixed("Payload/" + DemoApp.name).zip(to: folder.appendingPathComponent("Demo.ipa"))
    try tree.prefixed("Products/Applications/" + DemoApp.name).write(to: folder.appendingPathComponent("Demo.xcarchive"))
    print("wrote \(output)/Demo.app, Demo.ipa, Demo.xcarchive")
} catch {
    FileHandle.standardError.write(Data("atscheck-make-demo-app: \(error)\n".utf8))
    exit(1)
}
