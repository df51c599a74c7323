import Foundation

/// Binary plists (a compiled Info.plist, compiled `.strings`) are harvested as plists: in their object table one
/// string runs into the next object's marker byte (often printable: `_`, `P`–`^`), so a byte scan would glue
/// names together. Every key and string value is scanned on its own, and named by its key path.
enum BinaryPlistStrings {
    /// Calls `body` with each match and its dotted key path (nil at the root).
    static func matches(in data: Data, filter: HarvestFilter, _ body: (EndpointExtractor.Match, String?) -> Void) {
        guard let root = try? PropertyListSerialization.propertyList(from: data, options: [], format: nil) else {
            return
        }
        var visited = 0
        func scan(_ text: String, _ path: [String]) {
            for match in EndpointExtractor.matches(in: text, filter: filter) {
                body(match, path.isEmpty ? nil : path.joined(separator: "."))
            }
        }
        // Depth and count are bounded: the plist was size-capped when read, but nesting could still be deep.
        func walk(_ value: Any, _ path: [String], depth: Int) {
            visited += 1
            guard depth < 64, visited < 1_000_000 else { return }
            if let text = value as? String {
                scan(text, path)
            } else if let array = value as? [Any] {
                for (index, item) in array.enumerated() { walk(item, path + [String(index)], depth: depth + 1) }
            } else if let dictionary = value as? [String: Any] {
                for key in dictionary.keys.sorted() {
                    scan(key, path + [key])
                    walk(dictionary[key]!, path + [key], depth: depth + 1)
                }
            }
        }
        walk(root, [], depth: 0)
    }
}
