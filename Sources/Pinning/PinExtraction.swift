import Foundation
import TLSModel

/// What to pin for a live path, and the material each library needs (`atscheck pins extract`; pinning.md
/// §6, §7.3). Pure: it returns values and text; writing files is the CLI's job.
public enum PinExtraction {
    /// Recommends a CA pin plus a backup from the live path.
    /// - Parameters:
    ///   - host: The host the path was served for.
    ///   - path: The path the device would build (default trust), leaf first.
    ///   - trustKit: Which keys TrustKit can hash, for the warnings.
    /// - Returns: The recommendation, or nil for an empty path.
    public static func recommend(host: String, path: [CertificateFacts], trustKit: TrustKitOptions = TrustKitOptions())
        -> PinRecommendation?
    {
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
        for i in path.indices {
            if let key = trustKit.unsupportedKey(path[i]) {
                findings.append(
                    Finding(
                        rule: RuleID.Pins.trustKitUnsupportedKey, severity: .error,
                        message:
                            "\(host): \(Describe.certificate(path[i])) at position \(i) has a \(key) key, which "
                            + "TrustKit cannot hash; TrustKit fails closed when it reaches it before a match"
                    ))
            }
        }
        return PinRecommendation(host: host, primary: primary, backup: backup, reason: reason, findings: findings)
    }

    /// The material one format needs for a recommendation.
    /// - Parameters:
    ///   - recommendation: From ``recommend(host:path:trustKit:)``.
    ///   - path: The same path (for the DER of the recommended certificates).
    ///   - format: The format.
    /// - Returns: Files and text.
    public static func material(
        _ recommendation: PinRecommendation, path: [CertificateFacts], format: PinMaterialFormat
    ) -> PinMaterial {
        let host = recommendation.host
        let chosen = [recommendation.primary] + (recommendation.backup.map { [$0] } ?? [])
        let spkis = chosen.map(\.spkiSHA256)
        func derFiles() -> [PinMaterialFile] {
            chosen.map { p in
                PinMaterialFile(
                    name: "\(host)-\(p.position)-\(p.role).cer",
                    der: path.indices.contains(p.position) ? path[p.position].der : Data())
            }
        }
        switch format {
        case .afnetworking:
            return PinMaterial(
                format: format,
                summary:
                    "DER certificates for AFSecurityPolicy: in Certificate mode the path must reach one of them, in "
                    + "PublicKey mode their keys are compared. AF 4 loads *.cer from the main bundle's top "
                    + "level; with 2.x/3.x pass them with policyWithPinningMode:withPinnedCertificates:.",
                files: derFiles())
        case .alamofire:
            let swift = """
                let manager = ServerTrustManager(evaluators: [
                    "\(host)": PinnedCertificatesTrustEvaluator(certificates: Bundle.main.af.certificates)
                ])

                """
            return PinMaterial(
                format: format,
                summary:
                    "DER certificates for PinnedCertificatesTrustEvaluator (or PublicKeysTrustEvaluator, which takes "
                    + "their keys); Alamofire loads .cer/.crt/.der from the main bundle.",
                files: derFiles() + [PinMaterialFile(name: "\(host)-alamofire.swift", text: swift)])
        case .trustkit:
            let pins = spkis.map { "                <string>\($0)</string>" }.joined(separator: "\n")
            let text = """
                <key>TSKConfiguration</key>
                <dict>
                    <key>TSKPinnedDomains</key>
                    <dict>
                        <key>\(xml(host))</key>
                        <dict>
                            <key>TSKPublicKeyHashes</key>
                            <array>
                \(pins)
                            </array>
                            <key>TSKEnforcePinning</key>
                            <true/>
                            <key>TSKIncludeSubdomains</key>
                            <false/>
                        </dict>
                    </dict>
                </dict>

                """
            return PinMaterial(
                format: format,
                summary:
                    "A TSKConfiguration Info.plist dictionary with \(spkis.count) SPKI pins; TrustKit refuses an "
                    + "enforcing domain with fewer than 2.",
                files: [PinMaterialFile(name: "\(host)-trustkit.plist", text: text)])
        case .nspinneddomains:
            let ca = chosen.filter { $0.position > 0 }
            let (key, pins) = ca.isEmpty ? ("NSPinnedLeafIdentities", chosen) : ("NSPinnedCAIdentities", ca)
            let identities = pins.map {
                "                <dict>\n                    <key>SPKI-SHA256-BASE64</key>\n                    "
                    + "<string>\($0.spkiSHA256)</string>\n                </dict>"
            }.joined(separator: "\n")
            let text = """
                <key>NSPinnedDomains</key>
                <dict>
                    <key>\(xml(host))</key>
                    <dict>
                        <key>NSIncludesSubdomains</key>
                        <false/>
                        <key>\(key)</key>
                        <array>
                \(identities)
                        </array>
                    </dict>
                </dict>

                """
            return PinMaterial(
                format: format,
                summary:
                    "An NSPinnedDomains fragment for NSAppTransportSecurity (iOS 14+). Only \(key) are listed: a "
                    + "leaf list and a CA list would both have to match, so the leaf key is not a backup here.",
                files: [PinMaterialFile(name: "\(host)-nspinneddomains.plist", text: text)])
        case .curl:
            let leaf = path.first?.spkiSHA256 ?? recommendation.primary.spkiSHA256
            return PinMaterial(
                format: format,
                summary:
                    "A curl --pinnedpubkey argument: curl compares only the server's leaf key, so it pins the leaf; "
                    + "append ;sha256//<backup> for a spare key.",
                files: [PinMaterialFile(name: "\(host)-curl.txt", text: "--pinnedpubkey sha256//\(leaf)\n")])
        case .json:
            let set = PinSet(domains: [host: DomainPins(pins: spkis)])
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
            let text = (try? encoder.encode(set)).map { String(decoding: $0, as: UTF8.self) + "\n" } ?? ""
            return PinMaterial(
                format: format, summary: "A pin-set file (Pins/README.md) for atscheck pins check and the audit.",
                files: [PinMaterialFile(name: "\(host).json", text: text)])
        }
    }

    private static func xml(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
