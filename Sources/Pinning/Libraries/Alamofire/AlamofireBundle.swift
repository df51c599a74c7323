import Foundation
import TLSModel

extension BundleLookup {
    /// `.cer/.CER/.crt/.CRT/.der/.DER` at the top level of the main bundle: Alamofire's
    /// `Bundle.main.af.certificates`.
    package static let alamofire = BundleLookup(
        "Alamofire", folder: .mainBundle, extensions: ["cer", "CER", "crt", "CRT", "der", "DER"])
}

extension AlamofireLibrary {
    /// Configured by any certificate file read (a PEM blob in a `.cer` included: the check then says what the
    /// library makes of it).
    package func isConfigured(by pins: AppPins) -> Bool { !pins.certificates.isEmpty }

    /// `Bundle.main.af.certificates`.
    package var bundleLookups: [BundleLookup] { [.alamofire] }

    /// `Bundle.main.af.certificates`' files.
    package func loadingNote(_ copy: LinkedCopy) -> String? {
        "Bundle.main.af.certificates loads the \(LinkedCopy.count(copy.files(.alamofire), ".cer/.crt/.der file")) "
            + "at the top level of the app bundle (PEM files are dropped silently)"
    }
}
