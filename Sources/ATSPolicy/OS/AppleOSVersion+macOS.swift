/// macOS releases in iOS-family numbering: the one table every command reads (`plist --explain`, the linter's
/// deployment target, `app`'s `LSMinimumSystemVersion`). Issue 21: there were two, and they disagreed (macOS
/// 12.3 → iOS 15.3 or 15.4; 10.9 → 9 or 8), so a macOS app was judged under different suite eras by `plist` and
/// by `app`.
///
/// Source: the pairs of releases Apple shipped together, which share ATS and trust rules (ats-rules.md §0; the
/// ATS suite change of iOS 15.4 came with macOS 12.3, that of iOS 18.4 with macOS 15.4). macOS skipped 16–25 and
/// went from 15 to 26, as iOS went from 18 to 26.
extension AppleOSVersion {
    /// Each macOS release where the iOS-family release it pairs with changes, oldest first.
    static let macOSPairs: [(macOS: AppleOSVersion, iOS: AppleOSVersion)] = [
        (AppleOSVersion(10, 11), AppleOSVersion(9)),
        (AppleOSVersion(10, 12), AppleOSVersion(10)),
        (AppleOSVersion(10, 13), AppleOSVersion(11)),
        (AppleOSVersion(10, 14), AppleOSVersion(12)),
        (AppleOSVersion(10, 15), AppleOSVersion(13)),
        (AppleOSVersion(11), AppleOSVersion(14)),
        (AppleOSVersion(12), AppleOSVersion(15)),
        (AppleOSVersion(12, 3), AppleOSVersion(15, 4)),
        (AppleOSVersion(13), AppleOSVersion(16)),
        (AppleOSVersion(14), AppleOSVersion(17)),
        (AppleOSVersion(15), AppleOSVersion(18)),
        (AppleOSVersion(15, 4), AppleOSVersion(18, 4)),
    ]

    /// The iOS-family release that shipped with macOS release `macOS`, by the table above. Before macOS 10.11
    /// (no ATS): 8.0; macOS 26 and later share iOS's numbers; 16–25, which do not exist, the last before 26.
    /// - Returns: nil before macOS 10.
    public static func iOSFamily(macOS: AppleOSVersion) -> AppleOSVersion? {
        if macOS.major >= 26 { return AppleOSVersion(macOS.major, macOS.minor) }
        guard macOS.major >= 10 else { return nil }
        return macOSPairs.last(where: { $0.macOS <= macOS })?.iOS ?? AppleOSVersion(8)
    }

    /// The iOS-numbered release whose ATS rules macOS release `macOS` shares (``iOSFamily(macOS:)``); a release
    /// that does not exist keeps its own numbers.
    /// - Parameter macOS: a macOS release as `LSMinimumSystemVersion` writes it.
    public init(macOS: AppleOSVersion) {
        self = Self.iOSFamily(macOS: macOS) ?? macOS
    }
}
