import Foundation
import TLSModel

/// What to pin for a live path, and the material each library needs (`atscheck pins extract`; docs/pinning-rules.md
/// §6, §7.3). Pure: it returns values and text; writing files is the CLI's job.
package enum PinExtraction {
    /// Recommends a CA pin plus a backup from the live path.
    /// - Parameters:
    ///   - host: The host the path was served for.
    ///   - path: The path the device would build (default trust), leaf first.
    /// - Returns: The recommendation, or nil for an empty path.
    package static func recommend(host: String, path: [CertificateFacts]) -> PinRecommendation? {
        guard !path.isEmpty else { return nil }
        func pin(_ i: Int, _ why: String) -> RecommendedPin {
            let c = path[i]
            return RecommendedPin(
                position: i, role: Describe.role(i, count: path.count), subject: c.subject, spkiSHA256: c.spkiSHA256,
                sha256: c.sha256, notAfter: c.notAfter, why: why)
        }
        var findings: [Finding] = []
        let offChain =
            "Both pins are on the current path, so neither is a backup for a change of CA: add the pin of a spare "
            + "key or of a second CA (RFC 7469 §4.3) before shipping."
        let primary: RecommendedPin
        let backup: RecommendedPin?
        let reason: String
        switch path.count {
        case 1:
            primary = pin(0, "the only certificate: a self-signed leaf")
            backup = nil
            reason =
                "The path is a single self-signed certificate, so only it can be pinned; the pin breaks when the "
                + "certificate is replaced with a new key. Issue staging certificates from a private CA and pin "
                + "the CA instead."
            findings.append(
                Finding(
                    rule: RuleID.Pins.backupMissing, severity: .warning,
                    message:
                        "\(host): a self-signed leaf is the only certificate to pin; there is no backup on the path"))
        case 2:
            primary = pin(1, "the CA's key: survives every renewal of the leaf, with a new key or not")
            backup = pin(0, "the leaf's key: survives a change of CA only if the new certificate reuses the key")
            reason =
                "The CA pin keeps working across leaf renewals; the leaf key is a weak backup that only helps if the "
                + "key is reused. "
                + offChain
        default:
            let last = path.count - 1
            primary = pin(
                1,
                "the issuing CA's key: survives every renewal of the leaf, and the server sends it, so iOS and "
                    + "OpenSSL agree on it"
            )
            backup = pin(
                last,
                "the root's key: survives a rotation of the issuing intermediate (CAs rotate and re-key intermediates)")
            reason =
                "Pin CA keys, not the leaf: leaves renew every 90–398 days. The intermediate pin does not depend on "
                + "which root a platform builds to (cross-signing); the root pin covers a rotated intermediate. "
                + offChain
        }
        if let backup, backup.spkiSHA256 != primary.spkiSHA256 {
            // The pair is on the path: `pins check` of the written material warns exactly this, so say it here too.
            findings.append(
                Finding(
                    rule: RuleID.Pins.backupOnChain,
                    severity: RuleRegistry.pins.descriptor(for: RuleID.Pins.backupOnChain)?.severity ?? .warning,
                    message: OutageWarnings.backupOnChainMessage(host: host, pins: 2)
                        + "; add the SPKI pin of a spare key kept offline, or of a second CA, before shipping"))
        }
        // What a library cannot pin on this path (keys TrustKit cannot hash) is the library's to say.
        findings += PinningLibraries.all.flatMap { $0.recommendationFindings(host: host, path: path) }
        return PinRecommendation(host: host, primary: primary, backup: backup, reason: reason, findings: findings)
    }

    /// Every format's writer: each registered library's (``PinningLibrary/extractFormats``), then the formats of
    /// no library.
    package static var writers: [PinMaterialWriter] {
        PinningLibraries.all.flatMap(\.extractFormats) + [curl, json]
    }

    /// The writer of `format`; nil when no registered library writes it.
    package static func writer(_ format: PinMaterialFormat) -> PinMaterialWriter? {
        writers.first { $0.format == format }
    }

    /// The material one format needs for a recommendation.
    /// - Parameters:
    ///   - recommendation: From ``recommend(host:path:)``.
    ///   - path: The same path (for the DER of the recommended certificates).
    ///   - format: The format.
    /// - Returns: Files and text; no files, and a summary that says so, for a format no library writes.
    package static func material(
        _ recommendation: PinRecommendation, path: [CertificateFacts], format: PinMaterialFormat
    ) -> PinMaterial {
        guard let writer = writer(format) else {
            return PinMaterial(
                format: format, summary: "\(format.rawValue): not supported (no registered library writes it)",
                files: [])
        }
        return writer.material(recommendation, path)
    }

    /// The material as written to files: the writer's extra files added, each plist fragment made a whole plist
    /// document that loads with `--pins` like an Info.plist (``plistDocument(_:parent:)``).
    package static func writable(_ material: PinMaterial, recommendation: PinRecommendation) -> PinMaterial {
        guard let writer = writer(material.format) else { return material }
        var copy = material
        copy.files = (material.files + writer.extraFiles(recommendation)).map {
            plistDocument($0, parent: writer.plistParent)
        }
        return copy
    }

    /// A curl `--pinnedpubkey` argument (no library: curl compares the leaf key only).
    static let curl = PinMaterialWriter(.curl) { recommendation, path in
        let leaf = path.first?.spkiSHA256 ?? recommendation.primary.spkiSHA256
        return PinMaterial(
            format: .curl,
            summary:
                "A curl --pinnedpubkey argument: curl compares only the server's leaf key, so it pins the leaf; "
                + "append ;sha256//<backup> for a spare key.",
            files: [
                PinMaterialFile(name: "\(recommendation.host)-curl.txt", text: "--pinnedpubkey sha256//\(leaf)\n")
            ])
    }

    /// A pin-set file, atscheck's own format.
    static let json = PinMaterialWriter(.json) { recommendation, _ in
        let host = recommendation.host
        let set = PinSet(domains: [host: DomainPins(pins: recommendation.chosen.map(\.spkiSHA256))])
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        let text = (try? encoder.encode(set)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
        return PinMaterial(
            format: .json, summary: "A pin-set file (Pins/README.md) for atscheck pins check and the audit.",
            files: [PinMaterialFile(name: "\(host).json", text: text)])
    }

    /// A plist fragment wrapped into a whole plist document (the fragment is kept verbatim inside), under `parent`
    /// when given: `TSKConfiguration` at the top level, `NSPinnedDomains` under `NSAppTransportSecurity`.
    static func plistDocument(_ file: PinMaterialFile, parent: String?) -> PinMaterialFile {
        guard file.name.hasSuffix(".plist"), let text = file.text else { return file }
        let indented = text.split(separator: "\n", omittingEmptySubsequences: false).map {
            $0.isEmpty ? "" : "    " + $0
        }.joined(separator: "\n")
        let body =
            parent.map { parent in
                "    <key>\(parent)</key>\n    <dict>\n"
                    + indented.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n") + "\n    </dict>\n"
            } ?? indented
        var copy = file
        copy.text = """
            <?xml version="1.0" encoding="UTF-8"?>
            <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
            <plist version="1.0">
            <dict>
            \(body.hasSuffix("\n") ? String(body.dropLast()) : body)
            </dict>
            </plist>

            """
        return copy
    }

    /// `text` escaped for a plist `<key>` or `<string>`.
    package static func xml(_ text: String) -> String { PropertyListValues.escapedXML(text) }
}
