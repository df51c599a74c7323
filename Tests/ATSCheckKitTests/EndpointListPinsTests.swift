import ATSCheckKit
import Foundation
import Judging
import Pinning
import TLSModel
import TLSTestSupport
import Testing

/// The pin check of an endpoint-list entry (`pins:`, `library:`, the libraries' knobs) and the option model it
/// shares with `atscheck pins check`.
@Suite("Endpoint list pin checks")
struct EndpointListPinsTests {
    @Test("YAML: pins, library and knobs make a pin check; the policy is the one pins check builds")
    func parsesKnobs() throws {
        let yaml = """
            endpoints:
              - url: https://staging.example.com
                pins: Pins/staging.cer
                library: afnetworking
                mode: public-key
                allowInvalidCertificates: true
                validatesDomainName: false
                afVersion: 3
              - url: https://api.example.com
                pins: Pins/api.json
                library: TrustKit
              - url: https://cdn.example.com
                pins: Pins/
                library: alamofire
                evaluator: pinned-certificates
                acceptSelfSignedCertificates: yes
                validateHost: false
              - https://plain.example.com
            """
        let list = try EndpointList.parse(text: yaml, file: "e.yaml")
        #expect(list.findings.isEmpty, "\(list.findings)")
        #expect(list.entries.map { $0.pinCheck?.pins } == ["Pins/staging.cer", "Pins/api.json", "Pins/", nil])
        #expect(
            list.entries[0].pinCheck?.options.policy
                == .afnetworking(
                    AFSecurityPolicyOptions(
                        mode: .publicKey, allowInvalidCertificates: true, validatesDomainName: false, afVersion: 3)))
        #expect(list.entries[1].pinCheck?.options.policy == .trustkit(TrustKitOptions()))
        #expect(
            list.entries[2].pinCheck?.options.policy
                == .alamofire(
                    .pinnedCertificates(
                        acceptSelfSignedCertificates: true, performDefaultValidation: true, validateHost: false)))
    }

    @Test("JSON: booleans and numbers as JSON values; pins alone means AFNetworking Certificate mode, as pins check")
    func json() throws {
        let json = """
            {"endpoints": [
              {"url": "https://a.example.com", "pins": "a.cer", "validatesDomainName": false, "afVersion": 4},
              {"url": "https://b.example.com", "pins": "b.cer"}
            ]}
            """
        let list = try EndpointList.parse(text: json, file: "e.json")
        #expect(list.findings.isEmpty, "\(list.findings)")
        #expect(
            list.entries[0].pinCheck?.options.policy
                == .afnetworking(AFSecurityPolicyOptions(mode: .certificate, validatesDomainName: false)))
        #expect(list.entries[1].pinCheck?.options == PinPolicyOptions())
    }

    @Test(
        "unusable pin keys drop the entry with an endpoints.invalid error at its line",
        arguments: [
            ("library: trustkit", "without 'pins:'"),
            ("pins: a.json\n    library: okhttp", "library 'okhttp'"),
            ("pins: a.cer\n    mode: strict", "mode 'strict'"),
            (
                "pins: a.cer\n    library: trustkit\n    mode: certificate",
                "AFNetworking options: add 'library: afnetworking'"
            ),
            ("pins: a.cer\n    validateHost: false", "Alamofire options: add 'library: alamofire'"),
            ("pins: a.cer\n    afVersion: 5", "afVersion must be 2, 3 or 4"),
            ("pins: a.cer\n    afVersion: four", "afVersion 'four'"),
            ("pins: a.cer\n    allowInvalidCertificates: maybe", "allowInvalidCertificates 'maybe'"),
            (
                "pins: a.cer\n    library: alamofire\n    evaluator: public-keys\n    acceptSelfSignedCertificates: true",
                "acceptSelfSignedCertificates applies to 'evaluator: pinned-certificates' only"
            ),
        ])
    func invalid(_ keys: String, _ message: String) throws {
        let yaml = "endpoints:\n  - https://ok.example.com\n  - url: https://bad.example.com\n    \(keys)\n"
        let list = try EndpointList.parse(text: yaml, file: "e.yaml")
        #expect(list.entries.map(\.target.host) == ["ok.example.com"])
        #expect(list.findings.map(\.rule) == [EndpointListRuleID.invalid])
        #expect(list.findings.first?.line == 3)
        #expect(list.findings.first?.message.contains(message) == true, "\(list.findings.first?.message ?? "")")
    }

    @Test("an unknown key still warns and is ignored; pins on an http:// entry warns")
    func unknownAndHTTP() throws {
        let yaml = """
            endpoints:
              - url: https://a.example.com
                pinz: a.cer
              - url: http://b.example.com
                pins: b.cer
            """
        let list = try EndpointList.parse(text: yaml, file: "e.yaml")
        #expect(list.entries.count == 2)
        #expect(list.entries[0].pinCheck == nil)
        #expect(list.findings.map(\.rule) == [EndpointListRuleID.unknownKey, EndpointListRuleID.unknownKey])
        #expect(list.findings[0].message.contains("did you mean 'pins'?"))
        #expect(list.findings[1].line == 4)
        #expect(list.findings[1].message.contains("pins has no effect on an http:// endpoint"))
    }

    @Test("a relative pins path is relative to the endpoint list's folder, like caFile; an absolute one is kept")
    func relativePaths() throws {
        let dir = TestScratch.file("atscheck-list-pins")
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
        endpoints:
          - url: https://a.example.com
            pins: Pins/a.json
            library: trustkit
            caFile: ca.pem
          - url: https://b.example.com
            pins: /etc/pins/b.cer
        """.write(toFile: dir + "/e.yaml", atomically: true, encoding: .utf8)
        let list = try EndpointList.load(path: dir + "/e.yaml")
        #expect(list.entries.map { $0.pinCheck?.pins } == [dir + "/Pins/a.json", "/etc/pins/b.cer"])
        #expect(list.entries[0].caFile == dir + "/ca.pem")
    }

    @Test("PinPolicyOptions: the problems name the options in the caller's spelling")
    func spelling() {
        var options = PinPolicyOptions(library: .trustkit)
        options.values["mode"] = "public-key"
        #expect(options.problem(.commandLine)?.contains("--mode") == true)
        #expect(options.problem(.endpointList)?.hasPrefix("mode, allowInvalidCertificates") == true)
        #expect(PinPolicyOptions(library: .nspinneddomains).problem() == nil)
        #expect(
            PinPolicyOptions(library: .alamofire, values: PinOptionValues(["evaluator": "disabled"])).policy
                == .alamofire(.disabled))
    }
}
