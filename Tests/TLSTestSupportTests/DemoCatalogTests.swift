import Foundation
import TLSTestSupport
import Testing

@Suite("Demo catalogue")
struct DemoCatalogTests {
    static let examples = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Examples/demo-servers.json")

    @Test("every example server starts and handshakes as described")
    func examplesServe() throws {
        let catalog = try DemoCatalog.load(from: Self.examples)
        let pki = try TestPKI.make(name: "demo test")
        let names = catalog.servers.map(\.name)
        for required in [
            "modern", "tls13-only", "legacy-tls10", "rsa-kx-only", "dhe-only", "ecdsa", "self-signed", "sha1-leaf",
            "rsa1024", "wrong-host", "expired", "long-validity",
        ] {
            #expect(names.contains(required))
        }
        var results: [String: TestTLSClient.Result] = [:]
        var chains: [String: [TestCertificate]] = [:]
        for spec in catalog.servers {
            let configuration = try spec.configuration(pki: pki, address: "127.0.0.1")
            chains[spec.name] = configuration.chain
            let server = try TestTLSServer(configuration)
            defer { server.stop() }
            results[spec.name] = TestTLSClient.handshake(port: server.port)
            #expect(results[spec.name] != nil, "\(spec.name) did not handshake")
        }
        #expect(results["modern"]?.version == "TLSv1.3")
        #expect(results["tls13-only"]?.version == "TLSv1.3")
        #expect(results["legacy-tls10"]?.version == "TLSv1")
        #expect(results["legacy-tls10"]?.cipher.hasPrefix("AES") == true)
        #expect(results["rsa-kx-only"]?.cipher.hasPrefix("AES") == true)
        #expect(results["dhe-only"]?.cipher.hasPrefix("DHE-RSA") == true)
        #expect(results["missing-intermediate"]?.peerChain.count == 1)
        #expect(results["modern"]?.peerChain.count == 2)

        let details = try chains.mapValues { try $0[0].details }
        #expect(details["ecdsa"]?.keyType == "EC")
        #expect(details["rsa1024"]?.keyBits == 1024)
        #expect(details["sha1-leaf"]?.signatureAlgorithm == "sha1WithRSAEncryption")
        #expect(details["wrong-host"]?.dnsNames == ["wrong-host.example.test"])
        // the demo scans the .test name
        #expect(details["modern"]?.dnsNames == ["modern.demo.atscheck.test", "localhost"])
        #expect(details["modern"]?.ipAddresses == ["127.0.0.1"])
        #expect(try #require(details["expired"]).notAfter < Date())
        let long = try #require(details["long-validity"])
        #expect(long.notAfter.timeIntervalSince(long.notBefore) == 900 * 86_400)
        #expect(details["self-signed"]?.issuerCommonName == details["self-signed"]?.commonName)
        #expect(details["no-server-auth"]?.extendedKeyUsage == ["clientAuth"])
    }

    @Test("unknown values are reported with the server's name")
    func badValues() throws {
        let json = #"{"servers":[{"name":"x","minVersion":"TLSv9","certificate":{}}]}"#
        let catalog = try JSONDecoder().decode(DemoCatalog.self, from: Data(json.utf8))
        #expect(throws: DemoCatalogError.self) {
            try catalog.servers[0].configuration(pki: .shared, address: "127.0.0.1")
        }
        let badKey = #"{"servers":[{"name":"y","certificate":{"key":"dsa-1024"}}]}"#
        let second = try JSONDecoder().decode(DemoCatalog.self, from: Data(badKey.utf8))
        do {
            _ = try second.servers[0].configuration(pki: .shared, address: "127.0.0.1")
            Issue.record("expected an error")
        } catch let error as DemoCatalogError {
            #expect(error.description.contains("y: key 'dsa-1024'"))
        }
    }
}
