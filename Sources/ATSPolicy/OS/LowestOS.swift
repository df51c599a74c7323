/// The oldest OS release an app runs on, in iOS numbering, and which key or option said so: the first era
/// `plist --explain` lists and the release the lint's OS-dependent severities are judged for.
package struct LowestOS: Sendable, Equatable {
    /// Where the release came from.
    package enum Source: String, Sendable, Equatable, Codable {
        /// `--deployment-target`.
        case deploymentTarget = "--deployment-target"
        /// The Info.plist's `MinimumOSVersion` (an iOS-family app as built).
        case minimumOSVersion = "MinimumOSVersion"
        /// The `IPHONEOS_DEPLOYMENT_TARGET` build setting (`--build-setting`, `--xcconfig`).
        case iPhoneOSDeploymentTarget = "IPHONEOS_DEPLOYMENT_TARGET"
        /// The Info.plist's `LSMinimumSystemVersion` of a macOS app, mapped to the iOS release with the same ATS
        /// rules.
        case lsMinimumSystemVersion = "LSMinimumSystemVersion"
        /// The `MACOSX_DEPLOYMENT_TARGET` build setting of a macOS app, mapped likewise.
        case macOSDeploymentTarget = "MACOSX_DEPLOYMENT_TARGET"
    }

    /// The release, in iOS numbering.
    package var version: AppleOSVersion
    /// The release as written (`15.6`, `macOS 12`), for messages.
    package var text: String
    package var source: Source

    /// `iOS 15.6 (MinimumOSVersion)`, `macOS 12 (LSMinimumSystemVersion)`.
    package var described: String {
        (text.hasPrefix("macOS") ? text : "iOS \(text)") + " (\(source.rawValue))"
    }

    /// Whether an Info.plist is an iOS-family app's: `LSRequiresIPhoneOS`, `UIDeviceFamily`, `MinimumOSVersion`,
    /// `UIRequiredDeviceCapabilities`, a launch screen or interface orientations, or an iPhone platform in
    /// `CFBundleSupportedPlatforms`. Its `LSMinimumSystemVersion` (if any) is the Mac Catalyst minimum.
    package static func isIOSApp(_ root: [String: Any]) -> Bool {
        if root["LSRequiresIPhoneOS"] as? Bool == true { return true }
        let iOSKeys = [
            "UIDeviceFamily", "MinimumOSVersion", "UIRequiredDeviceCapabilities", "UILaunchStoryboardName",
            "UILaunchScreen", "UISupportedInterfaceOrientations", "UIApplicationSceneManifest",
        ]
        if iOSKeys.contains(where: { root[$0] != nil }) { return true }
        let platforms = root["CFBundleSupportedPlatforms"] as? [Any] ?? []
        return platforms.contains { ($0 as? String)?.hasPrefix("iPhone") == true }
    }

    /// The oldest release of a document's app.
    ///
    /// In order: `--deployment-target`; `MinimumOSVersion`; `IPHONEOS_DEPLOYMENT_TARGET`; then, for an app that is
    /// not an iOS app only, `LSMinimumSystemVersion` and `MACOSX_DEPLOYMENT_TARGET` (macOS, mapped to the iOS
    /// release with the same ATS rules). An iOS app's `LSMinimumSystemVersion` is its Mac Catalyst minimum and
    /// never its iOS one.
    /// - Parameters:
    ///   - document: The Info.plist (a bare ATS dictionary has no keys of its own).
    ///   - deploymentTarget: `--deployment-target` as written.
    ///   - settings: The build settings given.
    /// - Returns: nil when nothing says.
    package static func of(
        _ document: PlistDocument, deploymentTarget: String? = nil, settings: BuildSettings = BuildSettings()
    ) -> LowestOS? {
        if let found = iOS(deploymentTarget, .deploymentTarget) { return found }
        let root = document.kind == .infoPlist ? document.rootDictionary : [:]
        if let found = iOS(root["MinimumOSVersion"] as? String, .minimumOSVersion) { return found }
        if let found = iOS(
            settings.values["IPHONEOS_DEPLOYMENT_TARGET"].map { settings.expand($0).text },
            .iPhoneOSDeploymentTarget)
        {
            return found
        }
        guard !isIOSApp(root) else { return nil }
        if let found = macOS(root["LSMinimumSystemVersion"] as? String, .lsMinimumSystemVersion) { return found }
        return macOS(
            settings.values["MACOSX_DEPLOYMENT_TARGET"].map { settings.expand($0).text }, .macOSDeploymentTarget)
    }

    /// An iOS app's `LSMinimumSystemVersion` that ``of(_:deploymentTarget:settings:)`` did not use, as written.
    package static func ignoredCatalystMinimum(of document: PlistDocument) -> String? {
        guard document.kind == .infoPlist else { return nil }
        let root = document.rootDictionary
        guard isIOSApp(root), let text = root["LSMinimumSystemVersion"] as? String,
            AppleOSVersion(anyRelease: text) != nil
        else { return nil }
        return text
    }

    private static func iOS(_ text: String?, _ source: Source) -> LowestOS? {
        guard let text, let version = AppleOSVersion(anyRelease: text) else { return nil }
        return LowestOS(version: version, text: releaseText(text), source: source)
    }

    private static func macOS(_ text: String?, _ source: Source) -> LowestOS? {
        guard let text, let macOS = AppleOSVersion(anyRelease: text) else { return nil }
        return LowestOS(version: AppleOSVersion(macOS: macOS), text: "macOS " + releaseText(text), source: source)
    }

    /// A release as written, with each number in plain decimal (`015.0` → `15.0`).
    static func releaseText(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespaces).split(separator: ".").compactMap { Int($0) }.map(String.init)
            .joined(separator: ".")
    }
}
