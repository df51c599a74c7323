import Foundation
import TLSModel

/// How one `pins extract` format is written: a library declares its own (``PinningLibrary/extractFormats``), the
/// registry adds the formats of no library (curl, a pin-set file).
package struct PinMaterialWriter: Sendable {
    /// The format it writes.
    package var format: PinMaterialFormat
    /// Where its plist fragments go in a whole plist document when written to a file: nil for the top level
    /// (`TSKConfiguration`), else the dictionary that holds them (`NSAppTransportSecurity`).
    package var plistParent: String?
    /// The material for a recommendation and the path it was made from (leaf first, for the certificates' DER).
    package var material: @Sendable (PinRecommendation, [CertificateFacts]) -> PinMaterial
    /// Files written beside the material (TrustKit's configuration as JSON), not part of ``material``.
    package var extraFiles: @Sendable (PinRecommendation) -> [PinMaterialFile]

    /// A writer.
    /// - Parameters:
    ///   - format: The format.
    ///   - plistParent: Where its plist fragments go in a whole plist (nil: the top level).
    ///   - extraFiles: Files written beside the material.
    ///   - material: The material for a recommendation and its path.
    package init(
        _ format: PinMaterialFormat, plistParent: String? = nil,
        extraFiles: @escaping @Sendable (PinRecommendation) -> [PinMaterialFile] = { _ in [] },
        material: @escaping @Sendable (PinRecommendation, [CertificateFacts]) -> PinMaterial
    ) {
        self.format = format
        self.plistParent = plistParent
        self.extraFiles = extraFiles
        self.material = material
    }
}

extension PinRecommendation {
    /// The recommended pins: the primary, then the backup when there is one.
    package var chosen: [RecommendedPin] { [primary] + (backup.map { [$0] } ?? []) }

    /// The DER files of the recommended certificates (`host-1-intermediate.cer`), from `path`.
    package func derFiles(path: [CertificateFacts]) -> [PinMaterialFile] {
        chosen.map { p in
            PinMaterialFile(
                name: "\(host)-\(p.position)-\(p.role).cer",
                der: path.indices.contains(p.position) ? path[p.position].der : Data())
        }
    }
}

extension PinMaterialFormat {
    /// Every format `pins extract` writes: each registered library's, then curl and json.
    package static var allCases: [PinMaterialFormat] { PinExtraction.writers.map(\.format) }
}
