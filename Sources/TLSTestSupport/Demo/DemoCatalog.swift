import Foundation
internal import TLSModel

/// The example servers of `Examples/demo-servers.json`, as read by `atscheck-demo-servers`.
package struct DemoCatalog: Codable, Sendable {
    /// The servers, in the order they are started and listed.
    package var servers: [DemoServerSpec]

    package init(servers: [DemoServerSpec]) { self.servers = servers }

    /// Reads and checks a catalogue file.
    /// - Throws: ``DemoCatalogError`` naming the file and what is wrong with it.
    package static func load(from url: URL) throws -> DemoCatalog {
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw DemoCatalogError("\(url.path): no such file")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch {
            throw DemoCatalogError("cannot read \(url.path): \(error.localizedDescription)")
        }
        let catalog: DemoCatalog
        do { catalog = try JSONDecoder().decode(DemoCatalog.self, from: data) } catch {
            throw DemoCatalogError("\(url.path) is not a demo server catalogue: \(error)")
        }
        var seen = Set<String>()
        for server in catalog.servers where !seen.insert(server.name).inserted {
            throw DemoCatalogError("\(url.path): server name '\(server.name)' is used twice")
        }
        return catalog
    }
}

/// A catalogue that cannot be read or describes an impossible server.
package struct DemoCatalogError: Error, Sendable, CustomStringConvertible {
    /// One line saying what is wrong.
    package var description: String
    package init(_ description: String) { self.description = description }
}

/// One example server: TLS settings plus the certificate it presents.
package struct DemoServerSpec: Codable, Sendable {
    /// Unique name, e.g. `modern`.
    package var name: String
    /// What the server demonstrates, for people reading the file.
    package var description: String?
    /// `TLSv1.0` … `TLSv1.3` (default `TLSv1.2`).
    package var minVersion: String?
    /// `TLSv1.0` … `TLSv1.3` (default `TLSv1.3`).
    package var maxVersion: String?
    /// OpenSSL cipher string for TLS ≤ 1.2.
    package var ciphers: String?
    /// TLS 1.3 suites, `:`-separated.
    package var tls13Ciphers: String?
    /// Server cipher order (default true).
    package var serverPreference: Bool?
    /// Key exchange groups, e.g. `X25519:P-256`.
    package var groups: String?
    /// `full` (leaf + intermediate, the default), `leaf-only` (missing intermediate), or `with-root`.
    package var chain: String?
    package var certificate: DemoCertificateSpec

    /// The server configuration this entry describes.
    /// - Parameters:
    ///   - pki: The per-run PKI that issues `pki-leaf` certificates.
    ///   - address: Loopback address to bind; also put in the leaf's IP SAN by default.
    /// - Throws: ``DemoCatalogError`` for unknown values, ``TestSupportError`` when minting fails.
    package func configuration(pki: TestPKI, address: String) throws -> TLSServerConfiguration {
        let leaf = try certificate.mint(
            pki: pki, defaultNames: ["\(name).demo.atscheck.test", "localhost", address], server: name)
        let chain: [TestCertificate]
        switch (certificate.kind ?? "pki-leaf", self.chain ?? "full") {
        case ("self-signed", _), (_, "leaf-only"): chain = [leaf]
        case (_, "full"): chain = [leaf, pki.intermediate]
        case (_, "with-root"): chain = [leaf, pki.intermediate, pki.root]
        case (_, let other): throw DemoCatalogError("\(name): chain '\(other)' is not full, leaf-only or with-root")
        }
        return try TLSServerConfiguration(
            minVersion: version(minVersion, default: .tls1_2), maxVersion: version(maxVersion, default: .tls1_3),
            cipherList: ciphers, tls13CipherSuites: tls13Ciphers, serverPreference: serverPreference ?? true,
            chain: chain, groups: groups, address: address)
    }

    private func version(_ text: String?, default value: TLSVersion) throws -> TLSVersion {
        guard let text else { return value }
        guard let version = TLSVersion(name: text), TLSVersion.probed.contains(version) else {
            throw DemoCatalogError("\(name): '\(text)' is not TLSv1.0, TLSv1.1, TLSv1.2 or TLSv1.3")
        }
        return version
    }
}

/// The certificate of one example server.
package struct DemoCertificateSpec: Codable, Sendable {
    /// `pki-leaf` (issued by the per-run intermediate, the default) or `self-signed`.
    package var kind: String?
    /// `rsa-2048` (default), `rsa-1024`, `rsa-4096`, `ec-P-256`, `ec-P-384`.
    package var key: String?
    /// `sha256` (default), `sha384`, `sha1`, `md5`.
    package var digest: String?
    /// SAN entries (names and IP literals); default `localhost` and the bound address. `[]`: no SAN.
    package var names: [String]?
    /// Subject CN; default the first name.
    package var commonName: String?
    /// Lifetime in days (default 90).
    package var validityDays: Double?
    /// Validity starts this many days ago (default 1; negative: in the future).
    package var notBeforeDaysAgo: Double?
    /// EKU short names (default `["serverAuth"]`); `[]`: no EKU extension.
    package var extendedKeyUsage: [String]?
    /// Fake SCTs to embed (default 0).
    package var embeddedSCTs: Int?

    func mint(pki: TestPKI, defaultNames: [String], server: String) throws -> TestCertificate {
        let names = self.names ?? defaultNames
        let start = Date().addingTimeInterval(-(notBeforeDaysAgo ?? 1) * 86_400)
        var spec = CertificateSpec(
            commonName: commonName ?? names.first ?? server,
            dnsNames: names.filter { !CertificateSpec.isIPLiteral($0) },
            ipAddresses: names.filter(CertificateSpec.isIPLiteral),
            key: try keyType(server), keySlot: "demo-leaf", digest: try digestValue(server))
        spec = spec.valid(from: start, days: validityDays ?? 90)
        if let eku = extendedKeyUsage { spec.extendedKeyUsage = eku.isEmpty ? nil : eku }
        spec.embeddedSCTs = embeddedSCTs ?? 0
        switch kind ?? "pki-leaf" {
        case "pki-leaf": return try pki.leaf(spec)
        case "self-signed":
            spec.keySlot = "demo-self-signed"
            return try TestCertificate.selfSigned(spec)
        case let other: throw DemoCatalogError("\(server): certificate kind '\(other)' is not pki-leaf or self-signed")
        }
    }

    private func keyType(_ server: String) throws -> TestKeyType {
        let text = key ?? "rsa-2048"
        if text.hasPrefix("rsa-"), let bits = Int(text.dropFirst(4)), bits >= 512 { return .rsa(bits: bits) }
        if text.hasPrefix("ec-"), text.count > 3 { return .ec(curve: String(text.dropFirst(3))) }
        throw DemoCatalogError("\(server): key '\(text)' is not rsa-BITS or ec-CURVE (e.g. rsa-2048, ec-P-256)")
    }

    private func digestValue(_ server: String) throws -> TestDigest {
        let text = digest ?? "sha256"
        guard let digest = TestDigest(rawValue: text) else {
            throw DemoCatalogError("\(server): digest '\(text)' is not sha256, sha384, sha1 or md5")
        }
        return digest
    }
}
