import Foundation

/// A `$(NAME)` reference in an Info.plist that no build setting given resolved: Xcode replaces it when it builds the
/// app, so its value is not known here.
public struct UnresolvedSetting: Sendable, Equatable {
    /// The path from the file's root to the key or value (a key's own path when ``inKey``).
    public var path: [String]
    /// The settings referred to and not given.
    public var names: [String]
    /// Whether the reference is in the key itself (an `NSExceptionDomains` key such as `$(API_HOST)`), not its value.
    public var inKey: Bool
}

/// Replaces build settings in the keys and string values of a parsed plist, as Xcode does when it copies an
/// Info.plist into the product (`INFOPLIST_EXPAND_BUILD_SETTINGS`), and records what it could not resolve.
enum BuildSettingExpansion {
    /// The dictionary with every key and string expanded.
    /// - Parameters:
    ///   - dictionary: The root dictionary as Foundation parsed it.
    ///   - settings: The settings given.
    ///   - unresolved: Gathers the references no setting resolved.
    static func expand(
        _ dictionary: [String: Any], settings: BuildSettings, unresolved: inout [UnresolvedSetting]
    ) -> [String: Any] {
        expand(dictionary: dictionary, path: [], settings: settings, unresolved: &unresolved)
    }

    private static func expand(
        dictionary: [String: Any], path: [String], settings: BuildSettings, unresolved: inout [UnresolvedSetting]
    ) -> [String: Any] {
        var out: [String: Any] = [:]
        out.reserveCapacity(dictionary.count)
        for (key, value) in dictionary {
            let expanded = settings.expand(key)
            let keyPath = path + [expanded.text]
            if !expanded.unresolved.isEmpty {
                unresolved.append(UnresolvedSetting(path: keyPath, names: expanded.unresolved, inKey: true))
            }
            out[expanded.text] = expand(value: value, path: keyPath, settings: settings, unresolved: &unresolved)
        }
        return out
    }

    private static func expand(
        value: Any, path: [String], settings: BuildSettings, unresolved: inout [UnresolvedSetting]
    ) -> Any {
        switch PlistNode(value) {
        case .string(let text):
            let expanded = settings.expand(text)
            if !expanded.unresolved.isEmpty {
                unresolved.append(UnresolvedSetting(path: path, names: expanded.unresolved, inKey: false))
            }
            return expanded.text
        case .dictionary(let dictionary):
            return expand(dictionary: dictionary, path: path, settings: settings, unresolved: &unresolved)
        case .array(let elements):
            return elements.enumerated().map { index, element in
                expand(value: element, path: path + [String(index)], settings: settings, unresolved: &unresolved)
            }
        default:
            return value
        }
    }
}
