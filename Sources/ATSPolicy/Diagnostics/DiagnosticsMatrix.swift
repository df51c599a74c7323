import TLSModel

/// The test sequence of `nscurl --ats-diagnostics --verbose` (docs/apple-rules.md §5.2): sections, titles and the
/// ATS dictionary of each test. Releases before iOS 13 / macOS 10.15 had no TLSv1.3 tests (13 in all).
package struct DiagnosticsTestCase: Sendable, Equatable {
    package var section: String
    package var title: String
    /// The whole `NSAppTransportSecurity` dictionary of the test.
    package var dictionary: PlistValue
}

extension ATSDiagnostics {
    /// The test cases for `host`, in nscurl's order.
    /// - Parameters:
    ///   - host: the URL's host (the exception key).
    ///   - includeTLS13: whether the OS has the TLSv1.3 tests.
    package static func testCases(host: String, includeTLS13: Bool = true) -> [DiagnosticsTestCase] {
        let versions = (includeTLS13 ? ["TLSv1.3"] : []) + ["TLSv1.2", "TLSv1.1", "TLSv1.0"]
        func domain(_ entry: [String: PlistValue]) -> PlistValue {
            .dict([ATSKey.exceptionDomains.name: .dict([host: .dict(entry)])])
        }
        let minimum = ATSKey.exceptionMinimumTLSVersion.name
        let pfs = ATSKey.exceptionRequiresForwardSecrecy.name
        let insecure = ATSKey.exceptionAllowsInsecureHTTPLoads.name
        var cases: [DiagnosticsTestCase] = [
            .init(section: "Default ATS Secure Connection", title: "ATS Default Connection", dictionary: .emptyDict),
            .init(
                section: "Allowing Arbitrary Loads", title: "Allow All Loads",
                dictionary: .dict([ATSKey.allowsArbitraryLoads.name: .bool(true)])),
        ]
        for v in versions {
            cases.append(
                .init(
                    section: "Configuring TLS exceptions for \(host)", title: v,
                    dictionary: domain([minimum: .string(v)])))
        }
        cases.append(
            .init(
                section: "Configuring PFS exceptions for \(host)", title: "Disabling Perfect Forward Secrecy",
                dictionary: domain([pfs: .bool(false)])))
        cases.append(
            .init(
                section: "Configuring PFS exceptions and allowing insecure HTTP for \(host)",
                title: "Disabling Perfect Forward Secrecy and Allowing Insecure HTTP",
                dictionary: domain([insecure: .bool(true), pfs: .bool(false)])))
        for v in versions {
            cases.append(
                .init(
                    section: "Configuring TLS exceptions with PFS disabled for \(host)",
                    title: "\(v) with PFS disabled",
                    dictionary: domain([minimum: .string(v), pfs: .bool(false)])))
        }
        for v in versions {
            cases.append(
                .init(
                    section: "Configuring TLS exceptions with PFS disabled and insecure HTTP allowed for \(host)",
                    title: "\(v) with PFS disabled and insecure HTTP allowed",
                    dictionary: domain([insecure: .bool(true), minimum: .string(v), pfs: .bool(false)])))
        }
        return cases
    }
}
