import Foundation
import TLSModel

extension BundleLookup {
    /// `.cer/.CER/.crt/.CRT/.der/.DER` at the top level of the main bundle: Alamofire's
    /// `Bundle.main.af.certificates`.
    public static let alamofire = BundleLookup(
        "Alamofire", folder: .mainBundle, extensions: ["cer", "CER", "crt", "CRT", "der", "DER"])
}

extension AlamofireLibrary {
    /// `Bundle.main.af.certificates`.
    public var bundleLookups: [BundleLookup] { [.alamofire] }
}
