import Foundation

/// Binary plists (a compiled Info.plist, compiled `.strings`) are harvested as plists: in their object table one
/// string runs into the next object's marker byte (often printable: `_`, `P`–`^`), so a byte scan would glue
/// names together. Every key and string value is scanned on its own, and named by its key path.
enum BinaryPlistStrings {
    static func harvest(bytes: [UInt8], file: String, filter: HarvestFilter) -> [HarvestedEndpoint] {
        guard let root = try? PropertyListSerialization.propertyList(from: Data(bytes), options: [], format: nil) else {
            return []
        }
        var out: [HarvestedEndpoint] = []
        var visited = 0
        func scan(_ text: String, _ path: [String]) {
            for match in EndpointExtractor.matches(in: text, filter: filter) {
                let kind: HarvestedEndpoint.Kind = match.kind == .https ? .https : match.kind == .http ? .http : .host
                let source = HarvestedEndpoint.Source(
                    file: file, keyPath: path.isEmpty ? nil : path.joined(separator: "."))
                out.append(
                    HarvestedEndpoint(
                        kind: kind, host: match.host, port: match.port, example: match.text, sources: [source]))
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
        return out
    }
}
