import Foundation
import TLSModel

extension PinMaterialFormat {
    /// DER `.cer` files for `AFSecurityPolicy` (Certificate or PublicKey mode).
    package static let afnetworking = PinMaterialFormat(rawValue: "afnetworking")
}

extension AFNetworkingLibrary {
    /// `pins extract --format afnetworking`: the recommended certificates as DER files.
    package var extractFormats: [PinMaterialWriter] {
        [
            PinMaterialWriter(.afnetworking) { recommendation, path in
                PinMaterial(
                    format: .afnetworking,
                    summary:
                        "DER certificates for AFSecurityPolicy: in Certificate mode the path must reach one of them, "
                        + "in PublicKey mode their keys are compared. AF 4 loads *.cer from the main bundle's top "
                        + "level; with 2.x/3.x pass them with policyWithPinningMode:withPinnedCertificates:.",
                    files: recommendation.derFiles(path: path))
            }
        ]
    }
}
