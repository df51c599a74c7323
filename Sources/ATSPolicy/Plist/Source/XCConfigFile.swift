import Foundation

/// An Xcode configuration file (`.xcconfig`), read for the build settings an Info.plist uses: `NAME = VALUE` lines
/// (the last assignment wins; `$(inherited)` is the value before it), `#include "path"` and `#include? "path"`
/// (optional) relative to the including file, and `//` comments.
///
/// An assignment with a condition (`NAME[sdk=iphoneos*] = VALUE`) is skipped: which SDK, architecture or
/// configuration the build uses is not known here, so the unconditional value (or `--build-setting`) decides.
package enum XCConfigFile {
    /// Why an .xcconfig could not be read: exit 65, naming the file and line.
    package struct Failure: Error, Equatable, Sendable, CustomStringConvertible {
        package var file: String
        package var line: Int?
        package var reason: String

        package var description: String { "\(line.map { "\(file):\($0)" } ?? file): \(reason)" }
    }

    /// Reads an .xcconfig and the files it includes.
    /// - Parameters:
    ///   - path: The file.
    ///   - settings: The settings so far (earlier `--xcconfig` files): `$(inherited)` refers to them.
    /// - Returns: The settings with this file's assignments applied.
    /// - Throws: ``Failure`` when the file or a non-optional include cannot be read.
    package static func load(path: String, onto settings: BuildSettings = BuildSettings()) throws -> BuildSettings {
        var result = settings
        try apply(path: path, to: &result, depth: 0)
        return result
    }

    private static func read(_ path: String) throws -> String {
        do {
            let data = try BoundedFileReader.read(path: path, limit: InputLimits.plistBytes)
            return String(decoding: data, as: UTF8.self)
        } catch {
            throw Failure(file: path, line: nil, reason: error.reason)
        }
    }

    private static func apply(path: String, to settings: inout BuildSettings, depth: Int) throws {
        let text = try read(path)
        let folder = (path as NSString).deletingLastPathComponent
        for (index, raw) in PlistPreprocessor.lines(of: text).enumerated() {
            let line = stripComment(raw).trimmingCharacters(in: .whitespaces)
            if line.isEmpty { continue }
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let open = line.firstIndex(of: "\""),
                    let close = line[line.index(after: open)...].firstIndex(of: "\"")
                else {
                    throw Failure(file: path, line: index + 1, reason: "#include without a \"path\"")
                }
                let name = String(line[line.index(after: open)..<close])
                let target = name.hasPrefix("/") ? name : (folder as NSString).appendingPathComponent(name)
                guard depth < 16 else { throw Failure(file: path, line: index + 1, reason: "#include nested too deep") }
                if optional, !FileManager.default.fileExists(atPath: target) { continue }
                try apply(path: target, to: &settings, depth: depth + 1)
                continue
            }
            guard let equals = line.firstIndex(of: "=") else {
                throw Failure(file: path, line: index + 1, reason: "not a NAME = VALUE line")
            }
            let name = line[..<equals].trimmingCharacters(in: .whitespaces)
            if name.contains("[") { continue }  // conditional: see the type's note
            guard PreprocessorMacro.isIdentifier(name) else {
                throw Failure(file: path, line: index + 1, reason: "\(name) is not a build setting name")
            }
            var value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            if value.hasSuffix(";") { value.removeLast() }  // Xcode accepts a trailing semicolon
            let previous = settings.values[name] ?? ""
            value = value.replacingOccurrences(of: "$(inherited)", with: previous)
                .replacingOccurrences(of: "${inherited}", with: previous)
            settings.values[name] = value.trimmingCharacters(in: .whitespaces)
        }
    }

    /// A line without its `//` comment (an .xcconfig has no quoting: `https://` needs `https:/$()/`).
    private static func stripComment(_ line: Substring) -> Substring {
        guard let range = line.range(of: "//") else { return line }
        return line[..<range.lowerBound]
    }
}
