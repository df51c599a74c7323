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
        self.iOSEquivalent = platform == .iOS ? parsed : parsed.flatMap(Self.iOSNumbering(macOS:))
    }

    /// A macOS release in iOS-family numbering, by the year both shipped (the pairs ats-rules.md uses).
    /// - Returns: The iOS release of the same year; releases before macOS 10.11 (no ATS) give 8.0; nil when unknown.
    public static func iOSNumbering(macOS version: AppleOSVersion) -> AppleOSVersion? {
        switch version.major {
        case 10:
            let table = [11: AppleOSVersion(9), 12: AppleOSVersion(10), 13: AppleOSVersion(11), 14: AppleOSVersion(12),
                         15: AppleOSVersion(13)]
            if version.minor < 11 { return AppleOSVersion(8) }
            return table[version.minor] ?? AppleOSVersion(13)
        case 11: return AppleOSVersion(14)
        case 12: return version.minor >= 3 ? AppleOSVersion(15, 4) : AppleOSVersion(15)
        case 13: return AppleOSVersion(16)
        case 14: return AppleOSVersion(17)
        case 15: return version.minor >= 4 ? AppleOSVersion(18, 4) : AppleOSVersion(18)
        case 16...25: return AppleOSVersion(18, 4)
        default: return version.major >= 26 ? AppleOSVersion(version.major, version.minor) : nil
        }
    }

    /// The eras whose rules differ (``AppleOSVersion/supportedValues``) that the app runs under: the era the
    /// minimum falls in, and every later one. A minimum before iOS 9 starts at 9 (no ATS before it); an
    /// unreadable one gives the newest era only.
    public var eras: [AppleOSVersion] {
        let all = AppleOSVersion.supportedValues.compactMap(AppleOSVersion.init(string:)).sorted()
        guard let minimum = iOSEquivalent else { return Array(all.suffix(1)) }
        let start = all.last(where: { $0 <= minimum }) ?? all[0]
        return all.filter { $0 >= start }
    }

    /// The deployment target to hand ``PlistLinter`` (iOS numbering), nil when unreadable.
    public var deploymentTarget: String? { iOSEquivalent?.description }
}
