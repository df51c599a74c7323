import Foundation

/// The demo app bundle of `Examples/app/make-demo-app.sh` and the tests: an iOS app that talks to the demo
/// servers' names (`*.demo.atscheck.test`), pins the demo CA with AFNetworking, and carries the strings a
/// harvester must leave out (namespaces, Apple and documentation hosts, file names, format strings).
public enum DemoApp {
    /// The app folder's name.
    public static let name = "Demo.app"

    /// The endpoints the demo's executable and JavaScript bundle really name: what a harvest must report.
    public static let expectedTargets: Set<String> = [
        "https://modern.demo.atscheck.test", "https://legacy-tls10.demo.atscheck.test",
        "http://cdn.demo.atscheck.test", "rsa-kx-only.demo.atscheck.test:8443", "https://tls13-only.demo.atscheck.test",
    ]

    /// The C strings of the demo executable: real endpoints and decoys.
    public static let executableStrings = [
        "https://modern.demo.atscheck.test/v1/",
        "https://legacy-tls10.demo.atscheck.test/login?next=%@",
        "http://cdn.demo.atscheck.test/assets/logo.png",
        "rsa-kx-only.demo.atscheck.test:8443",
        // Decoys: none of these is an endpoint.
        "http://www.w3.org/2000/svg", "http://www.apple.com/DTDs/PropertyList-1.0.dtd",
        "https://developer.apple.com/documentation/security", "https://api.example.com/v1/users",
        "main.jsbundle", "Info.plist", "%@://%@/api/%@", "com.atscheck.demo.session", "support@atscheck.com",
        "AFSecurityPolicy", "4.0.1", "v1.2.3.4",
    ]

    /// The React Native bundle: one real endpoint among licence links, namespaces and library names.
    public static let jsBundle = """
        /** @license React v17.0.2 — see https://reactjs.org/docs/error-decoder.html?invariant=1 */
        var __BUNDLE_START_TIME__=this.nativePerformanceNow?nativePerformanceNow():Date.now();
        var svg = '<svg xmlns="http://www.w3.org/2000/svg"></svg>';
        var io = require("socket.io"); var m = require("moment.js");
        fetch("https://tls13-only.demo.atscheck.test/graphql", {method: "POST"});
        // Licensed under http://www.apache.org/licenses/LICENSE-2.0
        """

    /// The demo app's files (paths inside `Demo.app`).
    /// - Parameters:
    ///   - pinDER: The DER of the certificate to pin (the demo CA), written as `demo-ca.cer`.
    ///   - afNetworkingVersion: The `CFBundleShortVersionString` of the embedded AFNetworking.framework.
    ///   - binaryPlist: Compile the Info.plist to binary (as Xcode does) or keep XML.
    public static func tree(pinDER: Data, afNetworkingVersion: String = "4.0.1", binaryPlist: Bool = true) -> BundleTree {
        let info: [String: Any] = [
            "CFBundleIdentifier": "com.atscheck.demo", "CFBundleShortVersionString": "1.4.0", "CFBundleVersion": "42",
            "CFBundleExecutable": "Demo", "CFBundleName": "Demo", "MinimumOSVersion": "15.0",
            "NSAppTransportSecurity": [
                "NSExceptionDomains": [
                    "legacy-tls10.demo.atscheck.test": [
                        "NSExceptionMinimumTLSVersion": "TLSv1.0", "NSExceptionRequiresForwardSecrecy": false,
                    ],
                    "cdn.demo.atscheck.test": ["NSExceptionAllowsInsecureHTTPLoads": true],
                ],
            ],
        ]
        let framework: [String: Any] = [
            "CFBundleIdentifier": "org.cocoapods.AFNetworking", "CFBundleShortVersionString": afNetworkingVersion,
            "CFBundleExecutable": "AFNetworking", "CFBundlePackageType": "FMWK",
        ]
        return BundleTree(files: [
            "Info.plist": binaryPlist ? BundleTree.binaryPlist(info) : BundleTree.xmlPlist(info),
            "Demo": Data(MachOWriter.executable(sections: [.cstrings(executableStrings)])),
            "main.jsbundle": Data(jsBundle.utf8),
            "demo-ca.cer": pinDER,
            "Frameworks/AFNetworking.framework/Info.plist": BundleTree.binaryPlist(framework),
            "Frameworks/AFNetworking.framework/AFNetworking": Data(
                MachOWriter.executable(sections: [.cstrings(["AFSecurityPolicy", "AFURLSessionManager"])])),
        ])
    }
}
