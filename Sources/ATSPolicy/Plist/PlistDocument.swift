import Foundation

/// A parsed property list that may hold an `NSAppTransportSecurity` dictionary: either a whole
/// Info.plist (root dictionary containing `NSAppTransportSecurity`) or a bare ATS dictionary.
///
/// XML, binary and OpenStep plists are read with Foundation's `PropertyListSerialization`; for XML,
/// the line of every `<key>` is kept so findings can point at it.
public struct PlistDocument {
    /// How the file was encoded.
    public enum Format: String, Sendable, Equatable {
        case xml, binary, openStep
    }

    /// What the root dictionary is.
    public enum Kind: String, Sendable, Equatable {
        /// A whole Info.plist: the ATS dictionary (if any) is under `NSAppTransportSecurity`.
        case infoPlist
        /// The root itself is an `NSAppTransportSecurity` dictionary.
        case atsDictionary
    }

    /// The file name findings should carry.
    public let file: String
    /// The `PropertyListSerialization` value of the whole file (a dictionary).
    public let root: Any
    public let format: Format
    public let kind: Kind
    private let lineIndex: PlistLineIndex
    /// The build configuration this document is when the file's preprocessor conditions allow several (`DEBUG
    /// defined`); nil for a file with one.
    public internal(set) var configuration: String?
    /// The `$(NAME)` references no build setting resolved, with where they are: what the linter reports.
    public internal(set) var unresolvedSettings: [UnresolvedSetting] = []

    /// Reads and parses a plist file.
    /// - Parameter path: The file to read.
    /// - Returns: The parsed document.
    /// - Throws: ``PlistError`` (`.unreadable`, `.tooLarge`, `.malformed`, `.notADictionary`).
    public static func load(path: String) throws -> PlistDocument {
        let data = try readBytes(path: path)
        return try parse(data: data, file: path)
    }

    /// Parses plist bytes as they are (no preprocessing, no build settings given: ``PlistSource`` reads a file as
    /// Xcode builds it); `$(NAME)` references are recorded in ``unresolvedSettings``.
    /// - Parameters:
    ///   - data: XML, binary or OpenStep plist bytes.
    ///   - file: The name findings and errors should carry.
    /// - Returns: The parsed document.
    /// - Throws: ``PlistError`` when the bytes are not a plist or the root is not a dictionary.
    public static func parse(data: Data, file: String) throws -> PlistDocument {
        try parse(data: data, file: file, sourceLines: nil, settings: BuildSettings())
    }

    /// Parses plist bytes, preprocessed or not, and expands build settings.
    /// - Parameters:
    ///   - data: The bytes Foundation parses.
    ///   - file: The name findings and errors should carry.
    ///   - sourceLines: For preprocessed text, the source file's line of each line of `data`.
    ///   - settings: The build settings `$(NAME)` references take; nil: none expanded, none recorded.
    ///   - configuration: The build configuration `data` is, for a preprocessed file with several.
    static func parse(
        data: Data, file: String, sourceLines: [Int]?, settings: BuildSettings?, configuration: String? = nil
    ) throws -> PlistDocument {
        guard data.count <= InputLimits.plistBytes else {
            throw PlistError(
                code: .tooLarge, file: file, reason: InputLimits.tooLargeReason(limit: InputLimits.plistBytes))
        }
        guard !data.isEmpty else {
            throw PlistError(code: .malformed, file: file, reason: "malformed plist: the file is empty")
        }
        var format = PropertyListSerialization.PropertyListFormat.xml
        let root: Any
        do {
            root = try PropertyListSerialization.propertyList(from: data, options: [], format: &format)
        } catch {
            var failure = malformedError(error, data: data, file: file)
            if let line = failure.line, let sourceLines, line >= 1, line <= sourceLines.count {
                failure.line = sourceLines[line - 1]
            }
            throw failure
        }
        guard var dict = PlistNode.dictionary(root) else {
            throw PlistError(
                code: .notADictionary, file: file,
                reason: "the plist's root is \(PlistNode(root).typeName), not a dictionary")
        }
        let docFormat: Format
        switch format {
        case .binary: docFormat = .binary
        case .openStep: docFormat = .openStep
        default: docFormat = .xml
        }
        var unresolved: [UnresolvedSetting] = []
        var keyTransform: ((String) -> String)?
        if let settings, settings.expandsInfoPlist, docFormat == .binary || Self.mentionsSettings(data) {
            dict = BuildSettingExpansion.expand(dict, settings: settings, unresolved: &unresolved)
            if !settings.isEmpty { keyTransform = { settings.expand($0).text } }
        }
        let index =
            docFormat == .xml
            ? PlistLineIndex(xml: data, sourceLines: sourceLines, key: keyTransform) : PlistLineIndex()
        var document = PlistDocument(
            file: file, root: dict, format: docFormat, kind: classify(dict), lineIndex: index)
        document.configuration = configuration
        document.unresolvedSettings = unresolved
        return document
    }

    /// Whether text bytes hold a `$(` or `${`: only then can a build setting be referred to.
    private static func mentionsSettings(_ data: Data) -> Bool {
        let dollar = UInt8(ascii: "$")
        var previous: UInt8 = 0
        for byte in data {
            if previous == dollar && (byte == UInt8(ascii: "(") || byte == UInt8(ascii: "{")) { return true }
            previous = byte
        }
        return false
    }

    private init(file: String, root: Any, format: Format, kind: Kind, lineIndex: PlistLineIndex) {
        self.file = file
        self.root = root
        self.format = format
        self.kind = kind
        self.lineIndex = lineIndex
    }

    /// The root as a dictionary.
    public var rootDictionary: [String: Any] { PlistNode.dictionary(root) ?? [:] }

    /// The `NSAppTransportSecurity` value as written (any type), or nil when an Info.plist has none.
    public var atsValue: Any? {
        switch kind {
        case .atsDictionary: return root
        case .infoPlist: return rootDictionary[ATSKey.appTransportSecurity]
        }
    }

    /// The `NSAppTransportSecurity` dictionary, or nil when absent or not a dictionary.
    public var atsDictionary: [String: Any]? { atsValue.flatMap(PlistNode.dictionary) }

    /// The path inside the file of the ATS dictionary: `["NSAppTransportSecurity"]` or `[]`.
    public var atsPathInFile: [String] { kind == .infoPlist ? [ATSKey.appTransportSecurity] : [] }

    /// The line of a key in an XML plist.
    /// - Parameter keyPath: The path from the file's root, one element per dictionary key or
    ///   array index (`["NSAppTransportSecurity", "NSExceptionDomains", "example.com"]`).
    /// - Returns: The line of the `<key>` element, or nil (binary and OpenStep plists have no lines).
    public func line(forKeyPath keyPath: [String]) -> Int? { lineIndex.line(for: keyPath) }

    /// Keys an XML plist writes more than once in one dictionary: the path from the file's root and every line
    /// the key is on. Foundation keeps only the last value; binary and OpenStep plists report none here.
    var duplicateKeys: [(path: [String], lines: [Int], values: [Int])] { lineIndex.duplicates }

    /// For a duplicated key whose values are dictionaries, the keys each occurrence holds, in file order.
    func duplicateChildren(of path: [String]) -> [[String]] { lineIndex.duplicateChildren[path] ?? [] }

    /// The value at a path from the file's root (dictionary keys and array indices), nil when there is none.
    public func value(at path: [String]) -> Any? {
        var current: Any = root
        for component in path {
            if let dict = PlistNode.dictionary(current), let next = dict[component] {
                current = next
            } else if let array = current as? [Any], let index = Int(component), array.indices.contains(index) {
                current = array[index]
            } else {
                return nil
            }
        }
        return current
    }

    /// The line of a key given relative to the ATS dictionary (works for both kinds of file).
    public func line(forATSKeyPath keyPath: [String]) -> Int? { line(forKeyPath: atsPathInFile + keyPath) }

    /// Whether a root dictionary is a bare ATS dictionary rather than a whole Info.plist.
    static func classify(_ dict: [String: Any]) -> Kind {
        if dict[ATSKey.appTransportSecurity] != nil { return .infoPlist }
        let atsLike = dict.keys.filter { KeySuggestion.isATSLike($0) }.count
        let infoLike = dict.keys.filter { $0.hasPrefix("CF") || $0.hasPrefix("UI") || $0.hasPrefix("LS") }.count
        return atsLike > 0 && atsLike >= infoLike ? .atsDictionary : .infoPlist
    }
}

extension PlistDocument {
    /// An Info.plist's bytes, bounded by ``InputLimits/plistBytes``: the one read of a plist file.
    /// - Throws: ``PlistError`` (`.unreadable`, `.tooLarge`).
    static func readBytes(path: String) throws -> Data {
        do {
            return try BoundedFileReader.read(path: path, limit: InputLimits.plistBytes)
        } catch {
            throw PlistError(
                code: error == .tooLarge(limit: InputLimits.plistBytes) ? .tooLarge : .unreadable,
                file: path, reason: error.reason)
        }
    }
}
