import ATSCheckKit
import ATSPolicy
import ArgumentParser
import TLSModel

/// `--os-version`, declared once: used by ``PolicyOptions`` (scan, diagnose, audit) and by `plist`.
struct OSVersionOption: ParsableArguments {
    @Option(
        name: .customLong("os-version"),
        help: ArgumentHelp(
            "Apple OS release whose rules apply (iOS numbering).",
            discussion: "macOS 10.11 ≈ 9, 10.12 ≈ 10, 14 ≈ 17."))
    var os: AppleOSVersion = .newest
}

/// Which Apple rules to apply.
struct PolicyOptions: ParsableArguments {
    @OptionGroup var osVersion: OSVersionOption

    // Optional so that help shows the option's spelling of the default (`urlSession`), not the client's name.
    @Option(
        name: .long,
        help: ArgumentHelp("Client class (default: \(ClientKind.urlSession.optionValue)).", visibility: .default))
    var client: ClientKind?

    var os: AppleOSVersion { osVersion.os }
    /// The release and client whose rules apply, as one value.
    var judged: ATSClient { ATSClient(os: osVersion.os, kind: client ?? .urlSession) }
}

// The CLI parses its typed options itself: an unknown value is a usage error (exit 64) that lists the
// valid ones. The conformances live here because the model does not depend on ArgumentParser.

extension AppleOSVersion: ExpressibleByArgument {
    /// A known release (``AppleOSVersion/init(string:)``): `9`, `15.4`, `26.4.1`.
    public init?(argument: String) { self.init(string: argument) }
    public static var allValueStrings: [String] { supportedValues }
    public var defaultValueDescription: String { description }
}

extension ClientKind: ExpressibleByArgument {
    /// `urlSession`, `wkWebView`, `media` or `uiWebView`.
    public init?(argument: String) { self.init(optionValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.optionValue) }
    public static var allValueDescriptions: [String: String] {
        Dictionary(uniqueKeysWithValues: allCases.map { ($0.optionValue, $0.rawValue) })
    }
    public var defaultValueDescription: String { optionValue }
}
