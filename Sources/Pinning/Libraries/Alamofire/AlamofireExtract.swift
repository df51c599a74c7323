import Foundation
import TLSModel

extension PinMaterialFormat {
    /// DER `.cer` files for Alamofire's pinned-certificate and public-key evaluators.
    package static let alamofire = PinMaterialFormat(rawValue: "alamofire")
}

extension AlamofireLibrary {
    /// `pins extract --format alamofire`: the recommended certificates as DER files and a `ServerTrustManager`.
    package var extractFormats: [PinMaterialWriter] {
        [
            PinMaterialWriter(.alamofire) { recommendation, path in
                let host = recommendation.host
                let swift = """
                    let manager = ServerTrustManager(evaluators: [
                        "\(host)": PinnedCertificatesTrustEvaluator(certificates: Bundle.main.af.certificates)
                    ])

                    """
                return PinMaterial(
                    format: .alamofire,
                    summary:
                        "DER certificates for PinnedCertificatesTrustEvaluator (or PublicKeysTrustEvaluator, which "
                        + "takes their keys); Alamofire loads .cer/.crt/.der from the main bundle.",
                    files: recommendation.derFiles(path: path)
                        + [PinMaterialFile(name: "\(host)-alamofire.swift", text: swift)])
            }
        ]
    }
}
