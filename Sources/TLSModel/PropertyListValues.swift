/// Property-list helpers that the Info.plist reader (ATSPolicy) and the pin material (Pinning) share: one
/// implementation of each, where there were copies.
package enum PropertyListValues {
    /// A dictionary with string keys, from `[String: Any]` or `[AnyHashable: Any]` (Foundation's OpenStep parser
    /// returns the latter); non-string keys are dropped.
    /// - Parameter value: a decoded property-list value, or nil.
    /// - Returns: the dictionary, or nil when the value is not one.
    package static func stringKeyedDictionary(_ value: Any?) -> [String: Any]? {
        guard let value else { return nil }
        if let dictionary = value as? [String: Any] { return dictionary }
        if let dictionary = value as? [AnyHashable: Any] {
            var out: [String: Any] = [:]
            for (key, element) in dictionary { if let name = key.base as? String { out[name] = element } }
            return out
        }
        return nil
    }

    /// Text escaped for the character data of an XML property list (`<key>`, `<string>`): `&`, `<` and `>`.
    /// - Parameter text: the text.
    /// - Returns: the escaped text.
    package static func escapedXML(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;")
    }
}
