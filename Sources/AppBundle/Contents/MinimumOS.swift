import ATSPolicy

/// The oldest OS the app runs on, from `MinimumOSVersion` (iOS family) or `LSMinimumSystemVersion` (macOS),
/// and the OS eras its verdicts cover: from that minimum to ``AppleOSVersion/newest``.
public struct MinimumOS: Sendable, Equatable {
    /// Which numbering the Info.plist uses.
    public enum Platform: String, Sendable, Equatable {
        case iOS, macOS
    }

    public var platform: Platform
    /// The Info.plist key read: `MinimumOSVersion` or `LSMinimumSystemVersion`.
    public var key: String
    /// The value as written, nil when the key is absent or not a string.
    public var written: String?
    /// The minimum in iOS-family numbering (macOS 10.15 → 13, 12.3 → 15.4, 14 → 17), nil when unreadable.
    public var iOSEquivalent: AppleOSVersion?

    /// - Parameters:
    ///   - platform: The numbering of `written`.
    ///   - written: The value of the key as written.
    public init(platform: Platform, written: String?) {
        self.platform = platform
        self.key = platform == .iOS ? "MinimumOSVersion" : "LSMinimumSystemVersion"
        self.written = written
        let parsed = written.flatMap { AppleOSVersion(anyRelease: $0) }
        self.iOSEquivalent = platform == .iOS ? parsed : parsed.flatMap(AppleOSVersion.iOSFamily(macOS:))
    }

    /// The eras whose rules differ (``AppleOSEra/judgedEras``) that the app runs under: the era the minimum falls
    /// in, and every later one. A minimum before iOS 9 starts at 9 (no ATS before it); an unreadable one gives the
    /// newest era only.
    public var eras: [AppleOSVersion] {
        let all = AppleOSEra.judgedEras.map(\.version)
        guard let minimum = iOSEquivalent else { return Array(all.suffix(1)) }
        let start = AppleOSEra.judgedEra(containing: minimum)?.version ?? all[0]
        return all.filter { $0 >= start }
    }

    /// The deployment target to hand ``PlistLinter`` (iOS numbering), nil when unreadable.
    public var deploymentTarget: String? { iOSEquivalent?.description }
}
