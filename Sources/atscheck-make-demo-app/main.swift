import AppBundleFixtures
import Foundation
import TLSTestSupport

// Builds the demo app bundle of Examples/app: `Demo.app`, `Demo.ipa` and `Demo.xcarchive` in an output folder.
// usage: atscheck-make-demo-app OUTPUT-FOLDER [CA.pem] [NAME=PORT ...] [--minimum-os VERSION]
// The pin is the CA given (the demo servers' --write-ca), else the shared test PKI's root. NAME=PORT writes that
// demo server's port into the app's URLs (`make demo` passes the ports of its servers, so the harvested
// endpoints can be mapped to loopback with --resolve NAME.demo.atscheck.test:PORT:127.0.0.1).
// --minimum-os sets MinimumOSVersion (default 15.0): the first OS era the live verdicts cover.
let usage = "usage: atscheck-make-demo-app OUTPUT-FOLDER [CA.pem] [NAME=PORT ...] [--minimum-os VERSION]\n"
var arguments = Array(CommandLine.arguments.dropFirst())
var minimumOS = "15.0"
if let flag = arguments.firstIndex(of: "--minimum-os") {
    guard flag + 1 < arguments.count else {
        FileHandle.standardError.write(Data(usage.utf8))
        exit(64)
    }
    minimumOS = arguments[flag + 1]
    arguments.removeSubrange(flag...(flag + 1))
}
var ports: [String: Int] = [:]
arguments.removeAll { argument in
    let parts = argument.split(separator: "=", maxSplits: 1)
    guard parts.count == 2, !argument.hasPrefix("-") else { return false }
    guard let port = Int(parts[1]), (1...65_535).contains(port) else {
        FileHandle.standardError.write(Data("\(argument): expected NAME=PORT with a port 1…65535\n".utf8))
        exit(64)
    }
    ports[String(parts[0])] = port
    return true
}
// `--help` is not a folder to write into
guard let output = arguments.first, !output.hasPrefix("-"), arguments.count <= 2 else {
    FileHandle.standardError.write(Data(usage.utf8))
    exit(64)
}
do {
    let der: Data
    if arguments.count > 1 {
        let pem = try String(contentsOfFile: arguments[1], encoding: .utf8)
        let body = pem.components(separatedBy: "-----BEGIN CERTIFICATE-----").dropFirst().first?
            .components(separatedBy: "-----END CERTIFICATE-----").first?.filter { !$0.isWhitespace }
        guard let body, let decoded = Data(base64Encoded: body) else {
            FileHandle.standardError.write(Data("\(arguments[1]): no PEM certificate\n".utf8))
            exit(65)
        }
        der = decoded
    } else {
        der = TestPKI.shared.root.der
    }
    let folder = URL(fileURLWithPath: output)
    let tree = DemoApp.tree(pinDER: der, ports: ports, minimumOS: minimumOS)
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    for name in ["Demo.app", "Demo.ipa", "Demo.xcarchive"] {
        try? FileManager.default.removeItem(at: folder.appendingPathComponent(name))
    }
    try tree.write(to: folder.appendingPathComponent(DemoApp.name))
    try tree.prefixed("Payload/" + DemoApp.name).zip(to: folder.appendingPathComponent("Demo.ipa"))
    try tree.prefixed("Products/Applications/" + DemoApp.name).write(
        to: folder.appendingPathComponent("Demo.xcarchive"))
    print("wrote \(output)/Demo.app, Demo.ipa, Demo.xcarchive")
} catch {
    FileHandle.standardError.write(Data("atscheck-make-demo-app: \(error)\n".utf8))
    exit(1)
}
