/// macOS releases in iOS-family numbering: the one mapping every command reads (`plist --explain`, the linter's
/// deployment target, `app`'s `LSMinimumSystemVersion`), made from the `macOS` column of ``AppleOSEra/all``.
/// Issue 21: there were two tables and they disagreed (macOS 12.3 → iOS 15.3 or 15.4; 10.9 → 9 or 8), so a macOS
/// app was judged under different suite eras by `plist` and by `app`.
extension AppleOSVersion {
    /// Each macOS release where the iOS-family release it pairs with changes, oldest first.
    static let macOSPairs: [(macOS: AppleOSVersion, iOS: AppleOSVersion)] =
        AppleOSEra.all.compactMap { era in era.macOS.map { (macOS: $0, iOS: era.version) } }

    /// The iOS-family release that shipped with macOS release `macOS`, by ``AppleOSEra/all``. Before macOS 10.11
    /// (no ATS): 8.0. Where the numbers became shared (macOS 26 = iOS 26) a release keeps its own numbers; the
    /// majors that do not exist (16–25) give the last release before 26.
    /// - Returns: nil before macOS 10.
    package static func iOSFamily(macOS: AppleOSVersion) -> AppleOSVersion? {
        guard macOS.major >= 10 else { return nil }
        guard let pair = macOSPairs.last(where: { $0.macOS <= macOS }) else { return AppleOSVersion(8) }
        if pair.macOS == pair.iOS {
            return AppleOSVersion(macOS.major, macOS.minor)
        }
        return pair.iOS
    }

    /// The iOS-numbered release whose ATS rules macOS release `macOS` shares (``iOSFamily(macOS:)``); a release
    /// that does not exist keeps its own numbers.
    /// - Parameter macOS: a macOS release as `LSMinimumSystemVersion` writes it.
    package init(macOS: AppleOSVersion) {
        self = Self.iOSFamily(macOS: macOS) ?? macOS
    }
}
