import CertificateTrust
import Foundation
import TLSModel
import TLSTestSupport
import Testing

@testable import TLSProbe

/// A server that sends only its leaf, whose AIA caIssuers URL serves the intermediate from Python's http.server (an
/// HTTP server atscheck did not write): the scan completes the path as trustd does, records how, and says what went
/// wrong when it cannot.
@Suite("Missing intermediates fetched from caIssuers URLs")
struct IssuerCompletionTests {
    /// A PKI, a folder Python serves (the intermediate as DER, PEM and PKCS#7, plus bad answers), and a leaf-only
    /// server whose leaf points at `path`.
    final class Setup {
        let pki: TestPKI
        let folder: URL
        let python: PythonHTTPServer
        let caFile: String

        init() throws {
            pki = try TestPKI.make(name: "aia-\(UUID().uuidString.prefix(6))")
            folder = URL(fileURLWithPath: TestScratch.file("atscheck-aia"))
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try pki.intermediate.der.write(to: folder.appendingPathComponent("int.der"))
            try Data(pki.intermediate.pem.utf8).write(to: folder.appendingPathComponent("int.pem"))
            try Self.pkcs7(pki.intermediate.pem, to: folder.appendingPathComponent("int.p7c"))
            try Data((0..<3000).map { UInt8(($0 * 7) % 256) }).write(to: folder.appendingPathComponent("garbage.bin"))
            try Data(count: IssuerCompletion.maximumBytes + 1).write(to: folder.appendingPathComponent("huge.bin"))
            try pki.root.der.write(to: folder.appendingPathComponent("other.der"))
            python = try PythonHTTPServer(serving: folder)
            caFile = TestScratch.file("atscheck-aia-ca", suffix: ".pem")
            try pki.rootPEM.write(toFile: caFile, atomically: true, encoding: .utf8)
        }

        deinit {
            python.stop()
            try? FileManager.default.removeItem(at: folder)
            try? FileManager.default.removeItem(atPath: caFile)
        }

        /// A certs-only PKCS#7 (DER) written by the openssl command, not by atscheck's OpenSSL calls.
        static func pkcs7(_ pem: String, to file: URL) throws {
            let input = file.deletingPathExtension().appendingPathExtension("p7in.pem")
            try pem.write(to: input, atomically: true, encoding: .utf8)
            let process = try ChildProcess(
                "openssl", ["crl2pkcs7", "-nocrl", "-certfile", input.path, "-outform", "DER", "-out", file.path])
            try #require(process.waitForExit() == 0, "openssl crl2pkcs7 failed")
        }

        /// A leaf-only server for `localhost` whose leaf's caIssuers URLs are `urls`.
        func server(caIssuers urls: [String]) throws -> TestTLSServer {
            var spec = CertificateSpec.leaf("localhost", "127.0.0.1")
            spec.keySlot = "aia-leaf"
            if !urls.isEmpty {
                spec.extensions = [("authorityInfoAccess", urls.map { "caIssuers;URI:\($0)" }.joined(separator: ","))]
            }
            return try TestTLSServer(.modern(chain: [try pki.leaf(spec)]))
        }

        func request(_ server: TestTLSServer) throws -> ProbeRequest {
            var request = ProbeRequest(
                target: try Target(parsing: "localhost:\(server.port)"), connectAddress: server.host, timeout: 3,
                deadline: 30, caFiles: [caFile], useSystemTrustStore: false)
            request.scope = .atsOnly
            return request
        }
    }

    static func fetching() -> IssuerFetcher { IssuerFetcher(transport: HTTPFetcher()) }

    @Test(
        "the intermediate served as DER, PEM or PKCS#7 completes the path",
        arguments: ["int.der", "int.pem", "int.p7c"])
    func completes(file: String) async throws {
        let setup = try Setup()
        let server = try setup.server(caIssuers: [setup.python.url("/\(file)")])
        defer { server.stop() }
        let profile = await TLSProber(perHostLimit: 2, issuers: Self.fetching()).scan(try setup.request(server))
        let certificate = try #require(profile.certificate)
        #expect(certificate.chain.count == 1, "the server sent only its leaf")
        #expect(certificate.trusted == true, "\(certificate.verifyError ?? "")")
        #expect(certificate.verifiedChain.map(\.sha256).contains(setup.pki.intermediate.sha256.lowercased()))
        let fetches = try #require(certificate.trust?.issuerFetches)
        #expect(fetches.map(\.status) == [.fetched])
        #expect(fetches.first?.url == setup.python.url("/\(file)"))
        #expect(fetches.first?.certificates == [setup.pki.intermediate.sha256.lowercased()])
        #expect(setup.python.requests(for: "/\(file)") == 1)
        #expect(certificate.fetchedIssuerCertificates.map(\.sha256) == [setup.pki.intermediate.sha256.lowercased()])
    }

    @Test("with fetching off, the chain stays untrusted and the record says the URL was not fetched")
    func disabled() async throws {
        let setup = try Setup()
        let server = try setup.server(caIssuers: [setup.python.url("/int.der")])
        defer { server.stop() }
        let profile = await TLSProber(perHostLimit: 2, issuers: .disabled).scan(try setup.request(server))
        let certificate = try #require(profile.certificate)
        #expect(certificate.trusted == false)
        let fetch = try #require(certificate.trust?.unfetchedIssuer)
        #expect(fetch.status == .disabled && fetch.url == setup.python.url("/int.der"))
        #expect(fetch.reason == "fetching is off (--no-fetch)")
        #expect(setup.python.requests(for: "/int.der") == 0, "nothing may be fetched with fetching off")
    }

    @Test(
        "a URL that fails leaves the chain untrusted, with a one-line reason naming the URL",
        arguments: [
            ("/missing.der", "HTTP 404 File not found"), ("/garbage.bin", "neither a DER certificate"),
            ("/huge.bin", "over the limit of \(IssuerCompletion.maximumBytes) bytes"),
            ("/other.der", "not the certificate's issuer"),
        ])
    func failures(path: String, expected: String) async throws {
        let setup = try Setup()
        let server = try setup.server(caIssuers: [setup.python.url(path)])
        defer { server.stop() }
        let profile = await TLSProber(perHostLimit: 2, issuers: Self.fetching()).scan(try setup.request(server))
        let certificate = try #require(profile.certificate)
        #expect(certificate.trusted == false)
        let fetch = try #require(certificate.trust?.unfetchedIssuer)
        #expect(fetch.status == .failed)
        let reason = try #require(fetch.reason)
        #expect(reason.hasPrefix(setup.python.url(path)), "\(reason)")
        #expect(reason.contains(expected), "\(reason)")
        #expect(!reason.contains("\n"))
    }

    @Test("a dead URL (nothing listens) is a failure naming the URL and the refusal")
    func deadURL() async throws {
        let setup = try Setup()
        let closed = try ClosedPort()
        let url = "http://127.0.0.1:\(closed.port)/int.der"
        let server = try setup.server(caIssuers: [url])
        defer { server.stop() }
        let profile = await TLSProber(perHostLimit: 2, issuers: Self.fetching()).scan(try setup.request(server))
        let fetch = try #require(profile.certificate?.trust?.unfetchedIssuer)
        #expect(fetch.status == .failed && fetch.url == url)
        #expect(fetch.reason?.contains("Connection refused") == true, "\(fetch.reason ?? "")")
    }

    @Test("as trustd: a failing first URL is followed by the next; an https:// URL is not fetched")
    func urlsInTurn() async throws {
        let setup = try Setup()
        let server = try setup.server(caIssuers: [
            "https://127.0.0.1:1/int.der", setup.python.url("/missing.der"), setup.python.url("/int.der"),
        ])
        defer { server.stop() }
        let profile = await TLSProber(perHostLimit: 2, issuers: Self.fetching()).scan(try setup.request(server))
        let certificate = try #require(profile.certificate)
        #expect(certificate.trusted == true)
        let fetches = try #require(certificate.trust?.issuerFetches)
        #expect(fetches.map(\.status) == [.failed, .fetched], "the https:// URL is skipped, the 404 is tried first")
        #expect(certificate.trust?.unfetchedIssuer == nil, "a later URL that served the issuer settles it")

        let httpsOnly = try setup.server(caIssuers: ["https://127.0.0.1:1/int.der"])
        defer { httpsOnly.stop() }
        let skipped = await TLSProber(perHostLimit: 2, issuers: Self.fetching()).scan(try setup.request(httpsOnly))
        let records = try #require(skipped.certificate?.trust?.issuerFetches)
        #expect(records.map(\.status) == [.skipped])
        #expect(records.first?.reason?.contains("http:// only") == true)
        #expect(skipped.certificate?.trust?.unfetchedIssuer == nil, "trustd would not fetch it either: not ambiguous")
    }

    @Test("two endpoints needing the same URL cost one fetch: the second reuses the first's answer")
    func oncePerRun() async throws {
        let setup = try Setup()
        let url = setup.python.url("/int.der")
        let first = try setup.server(caIssuers: [url])
        let second = try setup.server(caIssuers: [url])
        defer {
            first.stop()
            second.stop()
        }
        let fetcher = Self.fetching()
        let prober = TLSProber(perHostLimit: 2, issuers: fetcher)
        let (requestA, requestB) = (try setup.request(first), try setup.request(second))
        async let a = prober.scan(requestA)
        async let b = prober.scan(requestB)
        let profiles = await [a, b]
        #expect(profiles.allSatisfy { $0.certificate?.trusted == true })
        #expect(setup.python.requests(for: "/int.der") == 1)
        #expect(fetcher.requestsSent == 1)
        let cached = profiles.compactMap { $0.certificate?.trust?.issuerFetches?.first?.cached }
        #expect(cached == [true], "exactly one endpoint reused the other's fetch")
    }

    @Test("a chain file judged without a scan completes the same way, and a saved profile is judged again offline")
    func chainFileAndSavedProfile() async throws {
        let setup = try Setup()
        var spec = CertificateSpec.leaf("localhost")
        spec.keySlot = "aia-leaf"
        spec.extensions = [("authorityInfoAccess", "caIssuers;URI:\(setup.python.url("/int.der"))")]
        let leaf = try setup.pki.leaf(spec)
        let reports = try ChainReports(
            source: .none, caFiles: [setup.caFile], logList: nil, download: Self.fetching().blockingDownload)
        let report = try reports.report(chain: [leaf.der], host: "localhost", now: Date())
        #expect(report.trusted == true)
        #expect(report.trust?.issuerFetches?.map(\.status) == [.fetched])
        setup.python.stop()  // judged again from what the report kept: no network
        let again = try ChainReports(source: .none, caFiles: [setup.caFile], logList: nil)
            .report(chain: [leaf.der], host: "localhost", now: Date(), savedIssuers: SavedIssuers(report))
        #expect(again.trusted == true)
        #expect(again.trust?.issuerFetches?.map(\.status) == [.fetched])
        let unsaved = try ChainReports(source: .none, caFiles: [setup.caFile], logList: nil)
            .report(chain: [leaf.der], host: "localhost", now: Date(), savedIssuers: .empty)
        #expect(unsaved.trusted == false)
        #expect(unsaved.trust?.unfetchedIssuer?.reason == "the saved profile's scan did not fetch it")
    }
}
