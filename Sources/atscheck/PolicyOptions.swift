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

    /// Refuses `--client system-services` for a command that weighs the app's Info.plist (its exceptions, its
    /// matrix), which Apple's system processes do not read.
    /// - Parameter why: what the command weighs and what to run instead.
    /// - Throws: a usage error (exit 64).
    static func refuseSystemServices(_ client: ClientKind?, _ why: String) throws {
        guard client == .systemServices else { return }
        throw ValidationError("--client \(ClientKind.systemServices.optionValue): \(why)")
    }

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
    /// `urlSession`, `wkWebView`, `media`, `uiWebView` or `system-services` (also spelled `systemServices`).
    public init?(argument: String) { self.init(optionValue: argument) }
    public static var allValueStrings: [String] { allCases.map(\.optionValue) }
    public static var allValueDescriptions: [String: String] {
        Dictionary(
            uniqueKeysWithValues: allCases.map {
                ($0.optionValue, $0 == .systemServices ? systemServicesHelp : $0.rawValue)
            })
    }
    /// What `--help` says of `system-services`: who it is and what does not apply.
    static let systemServicesHelp =
        "Apple's system processes (MDM, DDM, Automated Device Enrollment, profile and app installation, software "
        + "update), judged by Apple support 126655: TLS 1.2+, ATS suites and certificates, no Info.plist exception; "
        + "may be enforced from the 27 releases"
    public var defaultValueDescription: String { optionValue }
}

/// How an Info.plist given on the command line is read as Xcode builds it (issue 32): `--define` for the
/// preprocessor (`INFOPLIST_PREPROCESS`), `--build-setting` and `--xcconfig` for `$(NAME)` references. Used by
/// `plist`, `audit --plist`, `scan --plist` and `cert --plist`.
struct PlistReadingOptions: ParsableArguments {
    @Option(
        name: .customLong("define"),
        help: ArgumentHelp(
            "A preprocessor definition for an Info.plist with #if/#ifdef lines (INFOPLIST_PREPROCESS), as -D takes it; repeatable. Chooses one build configuration (a name not given is not defined); without any, every configuration the conditions allow is judged (up to 8) and each finding says which.",
            valueName: "name[=value]"))
    var defines: [String] = []

    @Option(
        name: .customLong("build-setting"),
        help: ArgumentHelp(
            "A build setting for $(NAME) and ${NAME} in the plist's keys and values; repeatable; wins over --xcconfig. INFOPLIST_PREPROCESSOR_DEFINITIONS, INFOPLIST_PREPROCESS and IPHONEOS_DEPLOYMENT_TARGET are read too. A reference left unresolved where ATS reads it is a finding, and the hosts it could change are judged ambiguous.",
            valueName: "name=value"))
    var buildSettings: [String] = []

    @Option(
        name: .customLong("xcconfig"),
        help: ArgumentHelp(
            "An .xcconfig file of build settings (its #include lines followed); repeatable, later files win.",
            valueName: "path"))
    var xcconfigs: [String] = []

    func validate() throws {
        for definition in defines where PreprocessorMacro.parse(definition: definition) == nil {
            throw ValidationError("--define \(definition): give NAME or NAME=VALUE, NAME a C identifier")
        }
        for setting in buildSettings where BuildSettings.parse(assignment: setting) == nil {
            throw ValidationError("--build-setting \(setting): give NAME=VALUE, NAME a build setting name")
        }
    }

    /// The options the plist is read with; reads every `--xcconfig` first.
    /// - Throws: ``InputFileError`` (exit 65) naming the .xcconfig and line that cannot be read.
    func readOptions() throws -> PlistReadOptions {
        var settings = BuildSettings()
        for path in xcconfigs {
            do { settings = try XCConfigFile.load(path: path, onto: settings) } catch let error as XCConfigFile.Failure
            {
                throw InputFileError(file: error.file, line: error.line, reason: error.reason)
            }
        }
        for assignment in buildSettings {
            if let (name, value) = BuildSettings.parse(assignment: assignment) { settings.values[name] = value }
        }
        var definitions: [String: PreprocessorMacro]?
        for definition in defines {
            if let (name, macro) = PreprocessorMacro.parse(definition: definition) {
                definitions = definitions ?? [:]
                definitions![name] = macro
            }
        }
        return PlistReadOptions(definitions: definitions, buildSettings: settings)
    }
}
