import Foundation
import TLSModel

extension PinMaterialFormat {
    /// An `NSPinnedDomains` plist fragment.
    package static let nspinneddomains = PinMaterialFormat(rawValue: "nspinneddomains")
}

extension PinnedDomainsLibrary {
    /// `pins extract --format nspinneddomains`: an `NSPinnedDomains` fragment for `NSAppTransportSecurity`.
    package var extractFormats: [PinMaterialWriter] {
        [
            PinMaterialWriter(.nspinneddomains, plistParent: "NSAppTransportSecurity") { recommendation, _ in
                let chosen = recommendation.chosen
                let ca = chosen.filter { $0.position > 0 }
                let (key, pins) = ca.isEmpty ? ("NSPinnedLeafIdentities", chosen) : ("NSPinnedCAIdentities", ca)
                let identities = pins.map {
                    "                <dict>\n                    <key>SPKI-SHA256-BASE64</key>\n                    "
                        + "<string>\($0.spkiSHA256)</string>\n                </dict>"
                }.joined(separator: "\n")
                let text = """
                    <key>NSPinnedDomains</key>
                    <dict>
                        <key>\(PinExtraction.xml(recommendation.host))</key>
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
                    format: .nspinneddomains,
                    summary:
                        "An NSPinnedDomains fragment for NSAppTransportSecurity (iOS 14+). Only \(key) are listed: a "
                        + "leaf list and a CA list would both have to match, so the leaf key is not a backup here.",
                    files: [PinMaterialFile(name: "\(recommendation.host)-nspinneddomains.plist", text: text)])
            }
        ]
    }
}
