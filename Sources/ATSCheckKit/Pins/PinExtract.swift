import AppleTrust
import Foundation
import Pinning
import TLSModel

/// `atscheck pins extract`: the live path of a target, what to pin on it, and the material each library needs.
public enum PinExtractor {
    /// Recommends pins for a served chain and renders the material of one format (writes nothing).
    /// - Parameters:
    ///   - target: The target as given.
    ///   - host: The host the app connects to.
    ///   - served: The chain the server sent, leaf first.
    ///   - format: The material format.
    ///   - caFiles: `--ca-file` roots.
    ///   - useSystemStore: Whether system roots count.
    ///   - source: Whose system roots (`--trust-store`; the newest of Apple's stores by default).
    ///   - now: The evaluation time.
    ///   - fetched: Issuers the scan fetched from the chain's caIssuers URLs (part of the live path, as on iOS).
    /// - Returns: The report, with no files written yet.
    /// - Throws: ``ProbeFailure`` when a certificate or CA file cannot be read.
    public static func extract(
        target: String, host: String, served: [CertificateFacts], format: PinMaterialFormat, caFiles: [String] = [],
        useSystemStore: Bool = true, source: TrustStoreSource = .apple(AppleTrustBundle.bundled), now: Date = Date(),
        fetched: [CertificateFacts] = []
    ) throws -> PinExtractReport {
        let builder = try OpenSSLTrustPathBuilder(
            served: served, caFiles: caFiles, useSystemStore: useSystemStore, source: source, now: now,
            fetched: fetched)
        let live = builder.build(anchors: .system, policy: .ssl(host: host))
        let path = live.path.isEmpty ? Array(served.prefix(1)) : live.path
        guard let recommendation = PinExtraction.recommend(host: host, path: path) else {
            throw ProbeFailure(.local, "\(target): the server sent no certificate")
        }
        let material = PinExtraction.writable(
            PinExtraction.material(recommendation, path: path, format: format), recommendation: recommendation)
        let entries = path.enumerated().map { i, c in
            PinPathEntry(
                position: i,
                role: path.count == 1 ? "leaf" : i == 0 ? "leaf" : i == path.count - 1 ? "anchor" : "intermediate",
                subject: c.subject, issuer: c.issuer, spkiSHA256: c.spkiSHA256, sha256: c.sha256, notAfter: c.notAfter,
                sentByServer: served.contains { $0.der == c.der })
        }
        return PinExtractReport(
            target: target, host: host, path: entries, trusted: live.ok, verifyError: live.error,
            recommendation: recommendation, material: material, written: [])
    }

    /// Writes the material's files into `directory` (created when missing).
    /// - Returns: The paths written.
    /// - Throws: ``OutputFileError`` (exit 73) when a file cannot be written.
    public static func write(_ material: PinMaterial, to directory: String) throws -> [String] {
        do { try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true) } catch {
            throw OutputFileError(
                file: directory, description: "atscheck: cannot create \(directory): \(error.localizedDescription)")
        }
        var written: [String] = []
        for file in material.files {
            // Names come from the host: keep them inside the directory.
            let name = file.name.replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "\0", with: "_")
            let path = (directory as NSString).appendingPathComponent(name.hasPrefix(".") ? "_" + name : name)
            let data = file.der ?? Data((file.text ?? "").utf8)
            do { try data.write(to: URL(fileURLWithPath: path), options: .atomic) } catch {
                throw OutputFileError(
                    file: path, description: "atscheck: cannot write \(path): \(error.localizedDescription)")
            }
            written.append(path)
        }
        return written
    }
}
