import Foundation

/// The demo app bundle of `Examples/app/make-demo-app.sh` and the tests: an iOS app that talks to the demo
/// servers' names (`*.demo.atscheck.test`), pins the demo CA with AFNetworking, and carries the strings a
/// harvester must leave out (namespaces, Apple and documentation hosts, file names, format strings).
package enum DemoApp {
    /// The app folder's name.
    package static let name = "Demo.app"

    /// The endpoints the demo's executable and JavaScript bundle really name: what a harvest must report.
    package static let expectedTargets: Set<String> = expectedTargets(ports: [:])

    /// The endpoints a demo built with `ports` names (`https://modern.demo.atscheck.test:PORT`, …).
    /// - Parameter ports: Demo server name (`modern`, `legacy-tls10`, `rsa-kx-only`, `tls13-only`, `cdn`) → the
    ///   port written into its URLs; a name not given keeps its default (443 implied, 8443 for `rsa-kx-only`).
    package static func expectedTargets(ports: [String: Int]) -> Set<String> {
        [
            "https://" + host("modern", ports), "https://" + host("legacy-tls10", ports),
            "http://" + host("cdn", ports),
            host("rsa-kx-only", ports, default: 8443), "https://" + host("tls13-only", ports),
        ]
    }

    /// `NAME.demo.atscheck.test`, with `:PORT` when `ports` names one (or there is a default port).
    package static func host(_ name: String, _ ports: [String: Int] = [:], default port: Int? = nil) -> String {
        "\(name).demo.atscheck.test" + ((ports[name] ?? port).map { ":\($0)" } ?? "")
    }

    /// The C strings of the demo executable: real endpoints and decoys.
    package static let executableStrings = executableStrings(ports: [:])

    /// The C strings of a demo executable whose URLs carry `ports` (see ``expectedTargets(ports:)``).
    package static func executableStrings(ports: [String: Int]) -> [String] {
        [
            "https://\(host("modern", ports))/v1/",
            "https://\(host("legacy-tls10", ports))/login?next=%@",
            "http://\(host("cdn", ports))/assets/logo.png",
            host("rsa-kx-only", ports, default: 8443),
            // Decoys: none of these is an endpoint.
            "http://www.w3.org/2000/svg", "http://www.apple.com/DTDs/PropertyList-1.0.dtd",
            "https://developer.apple.com/documentation/security", "https://api.example.com/v1/users",
            "main.jsbundle", "Info.plist", "%@://%@/api/%@", "com.atscheck.demo.session", "support@atscheck.com",
            "AFSecurityPolicy", "4.0.1", "v1.2.3.4",
        ]
    }

    /// The React Native bundle: one real endpoint among licence links, namespaces and library names.
    package static let jsBundle = jsBundle(ports: [:])

    /// The React Native bundle of a demo whose URLs carry `ports`.
    package static func jsBundle(ports: [String: Int]) -> String {
        """
        /** @license React v17.0.2 — see https://reactjs.org/docs/error-decoder.html?invariant=1 */
        var __BUNDLE_START_TIME__=this.nativePerformanceNow?nativePerformanceNow():Date.now();
        var svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
        var io = require("socket.io"); var m = require("moment.js");
        fetch("https://\(host("tls13-only", ports))/graphql", {method: "POST"});
        // Licensed under http://www.apache.org/licenses/LICENSE-2.0
        """
    }

    /// The demo app's files (paths inside `Demo.app`).
    /// - Parameters:
    ///   - pinDER: The DER of the certificate to pin (the demo CA), written as `demo-ca.cer`.
    ///   - afNetworkingVersion: The `CFBundleShortVersionString` of the embedded AFNetworking.framework.
    ///   - binaryPlist: Compile the Info.plist to binary (as Xcode does) or keep XML.
    ///   - ports: The ports the URLs carry (`make demo` writes the demo servers' ports; see ``expectedTargets(ports:)``).
    ///   - minimumOS: `MinimumOSVersion`: the first OS era the live verdicts cover.
    package static func tree(
        pinDER: Data, afNetworkingVersion: String = "4.0.1", binaryPlist: Bool = true, ports: [String: Int] = [:],
        minimumOS: String = "15.0"
    ) -> BundleTree {
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.atscheck.demo", "CFBundleShortVersionString": "1.4.0", "CFBundleVersion": "42",
            "CFBundleExecutable": "Demo", "CFBundleName": "Demo", "MinimumOSVersion": minimumOS,
            "NSAppTransportSecurity": [
                "NSExceptionDomains": [
                    "legacy-tls10.demo.atscheck.test": [
                        "NSExceptionMinimumTLSVersion": "TLSv1.0", "NSExceptionRequiresForwardSecrecy": false,
                    ],
                    "cdn.demo.atscheck.test": ["NSExceptionAllowsInsecureHTTPLoads": true],
                ]
            ],
        ]
        let framework: [String: Any] = [
            "CFBundleIdentifier": "org.cocoapods.AFNetworking", "CFBundleShortVersionString": afNetworkingVersion,
            "CFBundleExecutable": "AFNetworking", "CFBundlePackageType": "FMWK",
        ]
        return BundleTree(files: [
            "Info.plist": binaryPlist ? BundleTree.binaryPlist(info) : BundleTree.xmlPlist(info),
            "Demo": Data(MachOWriter.executable(sections: [.cstrings(executableStrings(ports: ports))])),
            "main.jsbundle": Data(jsBundle(ports: ports).utf8),
            "demo-ca.cer": pinDER,
            "Frameworks/AFNetworking.framework/Info.plist": BundleTree.binaryPlist(framework),
            "Frameworks/AFNetworking.framework/AFNetworking": Data(
                MachOWriter.executable(sections: [.cstrings(["AFSecurityPolicy", "AFURLSessionManager"])])),
        ])
    }
}
