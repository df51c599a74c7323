import ATSPolicy
import Foundation
import Pinning
import TLSModel
import Yams

/// A pin-set file (`Pins/*.json`, `*.yaml`, `*.yml`; the format of `Pins/README.md`), read with the line of
/// every value so that a malformed file is `FILE:LINE: reason` (exit 65) and findings point at their line.
enum PinSetFile {
    static let entryKeys = [
        "pins", "includeSubdomains", "enforce", "expirationDate", "excludeSubdomainFromParentPolicy",
    ]

    /// Reads a pin-set file.
    /// - Returns: The pin set and the checks TrustKit makes at start-up (``PinSetValidation``), with lines.
    /// - Throws: ``InputFileError`` for an unreadable, malformed or mistyped file.
    static func load(_ file: String) throws -> (PinSet, [Finding]) {
        let text = try StructuredFile.readText(path: file, limit: PinMaterialLoader.pinSetBytes)
        let format = StructuredFile.format(ofPath: file) ?? .yaml
        guard let root = try StructuredFile.parse(text, format: format, file: file) else {
            throw InputFileError(
                file: file, line: 1, reason: "empty pin-set file: expected a mapping with the key domains")
        }
        if let keys = root.mapping?.keys.compactMap(\.scalarText),
            keys.contains("TSKPinnedDomains") || keys.contains("TSKConfiguration")
        {
            return try trustKitDictionary(text, root: root, file: file)
        }
        var lines: [String: Int] = [:]
        let set = try parse(root, file: file, lines: &lines)
        let findings = PinSetValidation.findings(set, keyPathPrefix: "domains", file: file).map { finding -> Finding in
            var f = finding
            f.line = finding.keyPath.flatMap { lines[$0] }
            return f
        }
        return (set, findings)
    }

    /// A TrustKit configuration written as JSON or YAML (what `pins extract --format trustkit` writes next to
    /// the plist): the `TSKConfiguration` dictionary, or a document holding it under that key.
    static func trustKitDictionary(_ text: String, root: Node, file: String) throws -> (PinSet, [Finding]) {
        guard let any = try? Yams.load(yaml: text.replacingOccurrences(of: "\t", with: " ")),
            let top = any as? [String: Any]
        else {
            throw InputFileError(file: file, line: root.line, reason: "a TrustKit configuration must be a mapping")
        }
        let configuration = (top["TSKConfiguration"] as? [String: Any]) ?? top
        let (set, findings) = PinConfigurationParser.trustKit(configuration, file: file)
        return (set, findings)
    }

    /// The pin set of a parsed document; `lines` receives the line of every `domains.<name>` and
    /// `domains.<name>.pins.<i>` key path.
    static func parse(_ root: Node, file: String, lines: inout [String: Int]) throws -> PinSet {
        func fail(_ node: Node?, _ reason: String) -> InputFileError {
            InputFileError(file: file, line: node?.line, reason: reason)
        }
        guard let top = root.mapping else {
            throw fail(root, "the top level is \(root.kindName); expected a mapping with the key domains")
        }
        var domainsNode: Node?
        for (key, value) in top {
            guard key.scalarText == "domains" else {
                throw fail(key, "unknown key '\(key.scalarText ?? "?")' (expected domains)")
            }
            domainsNode = value
        }
        guard let domainsNode else { throw fail(root, "no domains key") }
        guard let domains = domainsNode.mapping else {
            throw fail(domainsNode, "domains is \(domainsNode.kindName); expected a mapping of host name to entry")
        }
        var out: [String: DomainPins] = [:]
        for (key, value) in domains {
            guard let name = key.scalarText, !name.isEmpty else {
                throw fail(key, "a domain name must be a non-empty string")
            }
            lines["domains.\(name)"] = key.line
            guard let fields = value.mapping else {
                throw fail(value, "\(name): the entry is \(value.kindName); expected a mapping with pins")
            }
            var entry = DomainPins(pins: [])
            for (fieldKey, field) in fields {
                let fieldName = fieldKey.scalarText ?? "?"
                switch fieldName {
                case "pins":
                    guard let list = field.sequence else {
                        throw fail(field, "\(name): pins is \(field.kindName); expected a list of Base64 strings")
                    }
                    for (i, item) in list.enumerated() {
                        guard let pin = item.scalarText else {
                            throw fail(item, "\(name): pin \(i + 1) is \(item.kindName); expected a string")
                        }
                        entry.pins.append(pin)
                        lines["domains.\(name).pins.\(i)"] = item.line
                    }
                case "includeSubdomains": entry.includeSubdomains = try bool(field, name, fieldName, fail)
                case "enforce": entry.enforce = try bool(field, name, fieldName, fail)
                case "excludeSubdomainFromParentPolicy":
                    entry.excludeSubdomainFromParentPolicy = try bool(field, name, fieldName, fail)
                case "expirationDate":
                    guard let date = field.scalarText, CalendarDay.date(from: date) != nil else {
                        throw fail(field, "\(name): expirationDate must be a YYYY-MM-DD date")
                    }
                    entry.expirationDate = date
                default:
                    throw fail(
                        fieldKey, "\(name): unknown key '\(fieldName)' (expected \(entryKeys.joined(separator: ", ")))")
                }
            }
            if !entry.excludeSubdomainFromParentPolicy && fields["pins"] == nil {
                throw fail(key, "\(name): pins is missing")
            }
            out[name] = entry
        }
        return PinSet(domains: out)
    }

    private static func bool(_ node: Node, _ name: String, _ key: String, _ fail: (Node?, String) -> InputFileError)
        throws -> Bool
    {
        switch node.scalarText?.lowercased() {
        case "true"?: return true
        case "false"?: return false
        default: throw fail(node, "\(name): \(key) must be true or false")
        }
    }
}
