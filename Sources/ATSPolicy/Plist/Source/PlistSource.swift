import Foundation
import TLSModel

/// An Info.plist read as Xcode builds it: preprocessed when it has preprocessor directives (`INFOPLIST_PREPROCESS`),
/// with its build settings expanded, as one ``PlistDocument`` per build configuration its conditions allow.
///
/// Without definitions (`--define`, `INFOPLIST_PREPROCESSOR_DEFINITIONS`) every combination of the names the
/// conditions test — each defined (as `1`) or not — is a configuration, up to
/// ``PlistReadOptions/maximumConfigurations``; combinations that give the same text are one. With definitions, the
/// one configuration they choose (C semantics: a name not given is not defined).
public struct PlistSource {
    /// The file as given.
    public let file: String
    /// One document per build configuration, never empty; each names its configuration when there are several.
    public let configurations: [PlistDocument]
    /// What reading found that is not about one configuration: configurations left unjudged, configurations that
    /// are not valid plists (the build of that configuration would fail).
    public let findings: [Finding]

    /// The first configuration (the only one for a file without conditions).
    public var document: PlistDocument { configurations[0] }

    /// Whether the file's configurations differ (several documents to judge).
    public var hasConfigurations: Bool { configurations.count > 1 }

    /// Reads a file.
    /// - Parameters:
    ///   - path: The Info.plist (or a bare ATS dictionary).
    ///   - options: Definitions and build settings.
    /// - Returns: The configurations.
    /// - Throws: ``PlistError`` when it is unreadable, too large, or no configuration is a plist (exit 65).
    public static func load(path: String, options: PlistReadOptions = PlistReadOptions()) throws -> PlistSource {
        let data = try PlistDocument.readBytes(path: path)
        return try parse(data: data, file: path, options: options)
    }

    /// Reads plist bytes; an `#include` is resolved against the folder of `file`.
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - file: Its path as given.
    ///   - options: Definitions and build settings.
    /// - Returns: The configurations.
    /// - Throws: ``PlistError``.
    public static func parse(data: Data, file: String, options: PlistReadOptions = PlistReadOptions()) throws
        -> PlistSource
    {
        let settings = options.buildSettings
        let chosen = options.chosenDefinitions
        let isBinary = data.starts(with: Array("bplist".utf8))
        guard !isBinary, settings.preprocess != false, data.count <= InputLimits.plistBytes,
            let utf8 = PlistXMLText.normalizedUTF8(data)
        else {
            return PlistSource(
                file: file,
                configurations: [try PlistDocument.parse(data: data, file: file, sourceLines: nil, settings: settings)],
                findings: [])
        }
        let text = String(decoding: utf8, as: UTF8.self)
        let hasDirectives = PlistPreprocessor.hasDirectives(text)
        // Definitions alone preprocess a file without directives too: Xcode expands their macros in the text.
        guard hasDirectives || !(chosen ?? [:]).isEmpty || settings.preprocess == true else {
            return PlistSource(
                file: file,
                configurations: [try PlistDocument.parse(data: data, file: file, sourceLines: nil, settings: settings)],
                findings: [])
        }
        return try PlistConfigurations.read(text: text, file: file, definitions: chosen, options: options)
    }

    init(file: String, configurations: [PlistDocument], findings: [Finding]) {
        self.file = file
        self.configurations = configurations
        self.findings = findings
    }
}
