/// How to read an Info.plist as Xcode builds it: the preprocessor definitions that choose its branches and the build
/// settings its `$(NAME)` references take (`--define`, `--build-setting`, `--xcconfig`).
public struct PlistReadOptions: Sendable, Equatable, Codable {
    /// `--define NAME[=VALUE]`: with ``BuildSettings/preprocessorDefinitions``, the one configuration judged (C
    /// semantics: a name not given is not defined). nil with no `INFOPLIST_PREPROCESSOR_DEFINITIONS` either: every
    /// configuration the file's conditions allow is judged, up to ``maximumConfigurations``.
    public var definitions: [String: PreprocessorMacro]?
    /// `--build-setting` over `--xcconfig`.
    public var buildSettings: BuildSettings
    /// The most configurations judged when no definitions are given.
    public var maximumConfigurations: Int

    /// The bound on configurations: 8 covers every combination of three names a file tests (the KeePassium and
    /// ownCloud patterns test one or two), and keeps a lint of a file with many conditions to a few passes.
    public static let defaultMaximumConfigurations = 8

    /// - Parameters:
    ///   - definitions: The definitions given; nil: none.
    ///   - buildSettings: The settings given.
    ///   - maximumConfigurations: The bound on configurations judged without definitions.
    public init(
        definitions: [String: PreprocessorMacro]? = nil, buildSettings: BuildSettings = BuildSettings(),
        maximumConfigurations: Int = Self.defaultMaximumConfigurations
    ) {
        self.definitions = definitions
        self.buildSettings = buildSettings
        self.maximumConfigurations = max(1, maximumConfigurations)
    }

    /// The definitions that choose one configuration: `INFOPLIST_PREPROCESSOR_DEFINITIONS`, with `--define` on top;
    /// nil when neither is given.
    var chosenDefinitions: [String: PreprocessorMacro]? {
        let fromSettings = buildSettings.preprocessorDefinitions
        guard definitions != nil || fromSettings != nil else { return nil }
        return (fromSettings ?? [:]).merging(definitions ?? [:]) { _, given in given }
    }
}
