import Foundation
import TLSModel

extension PinMaterialFormat {
    /// A `TSKConfiguration` dictionary.
    package static let trustkit = PinMaterialFormat(rawValue: "trustkit")
}

extension TrustKitLibrary {
    /// `pins extract --format trustkit`: a `TSKConfiguration` fragment, and the same as JSON beside it.
    package var extractFormats: [PinMaterialWriter] {
        [
            PinMaterialWriter(.trustkit, extraFiles: { [Self.configurationJSON($0)] }) { recommendation, _ in
                let spkis = recommendation.chosen.map(\.spkiSHA256)
                let pins = spkis.map { "                <string>\($0)</string>" }.joined(separator: "\n")
                let text = """
                    <key>TSKConfiguration</key>
                    <dict>
                        <key>TSKPinnedDomains</key>
                        <dict>
                            <key>\(PinExtraction.xml(recommendation.host))</key>
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
                    format: .trustkit,
                    summary:
                        "A TSKConfiguration Info.plist dictionary with \(spkis.count) SPKI pins; TrustKit refuses an "
                        + "enforcing domain with fewer than 2.",
                    files: [PinMaterialFile(name: "\(recommendation.host)-trustkit.plist", text: text)])
            }
        ]
    }

    /// The `TSKConfiguration` dictionary as JSON (for `TrustKit.initSharedInstance(withConfiguration:)` built
    /// from a JSON resource instead of the Info.plist).
    static func configurationJSON(_ recommendation: PinRecommendation) -> PinMaterialFile {
        let dictionary: [String: Any] = [
            "TSKPinnedDomains": [
                recommendation.host: [
                    "TSKPublicKeyHashes": recommendation.chosen.map(\.spkiSHA256), "TSKEnforcePinning": true,
                    "TSKIncludeSubdomains": false,
                ]
            ]
        ]
        let data =
            (try? JSONSerialization.data(
                withJSONObject: dictionary, options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])) ?? Data()
        return PinMaterialFile(
            name: "\(recommendation.host)-trustkit.json", text: String(decoding: data, as: UTF8.self) + "\n")
    }

    /// Keys TrustKit cannot hash on the recommended path: TrustKit fails closed when it reaches one before a match.
    package func recommendationFindings(host: String, path: [CertificateFacts]) -> [Finding] {
        let trustKit = TrustKitOptions()
        return path.indices.compactMap { i in
            guard let key = trustKit.unsupportedKey(path[i]) else { return nil }
            return Finding(
                rule: RuleID.Pins.trustKitUnsupportedKey, severity: .error,
                message:
                    "\(host): \(Describe.certificate(path[i])) at position \(i) has a \(key) key, which "
                    + "TrustKit cannot hash; TrustKit fails closed when it reaches it before a match")
        }
    }
}
