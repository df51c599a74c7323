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

    /// A pin-set file read: its pin set, findings with lines, and what TrustKit would refuse in it.
    struct Loaded {
        var pinSet: PinSet
        var findings: [Finding]
        var refusals: [TrustKitLaunchFailure]
    }

    /// Reads a pin-set file.
    /// - Returns: The pin set, the checks TrustKit makes at start-up (``TrustKitLaunchCheck``) and the pin text
    ///   checks as findings with lines, and the refusals.
    /// - Throws: ``InputFileError`` for an unreadable, malformed or mistyped file.
    static func load(_ file: String) throws -> Loaded {
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
        var configuration: [String: Any] = [:]
        let set = try parse(root, file: file, lines: &lines, configuration: &configuration)
        let refusals = TrustKitLaunchCheck.refusals([TrustKitLaunchCheck.Key.pinnedDomains: configuration])
        func line(_ keyPath: String) -> Int? {
            var parts = keyPath.split(separator: ".").map(String.init)
            while !parts.isEmpty {
                if let line = lines[parts.joined(separator: ".")] { return line }
                parts.removeLast()
            }
            return root.line
        }
        let located = refusals.map { refusal in
            let keyPath = PinSetValidation.pinSetKeyPath(refusal.keyPath)
            let finding = refusal.finding(
                file: file, keyPath: keyPath, line: line(keyPath), names: PinSetValidation.pinSetKeyNames)
            return (finding, line(keyPath), refusal)
        }
        let malformed = PinSetValidation.malformedPins(set, file: file) { domain, index in
            ("domains.\(domain).pins.\(index)", lines["domains.\(domain).pins.\(index)"])
        }
        return Loaded(
            pinSet: set, findings: located.map(\.0) + malformed,
            refusals: located.map {
                TrustKitLaunchFailure(
                    file: file, line: $0.1, refusal: $0.2, inInfoPlist: false, names: PinSetValidation.pinSetKeyNames)
            })
    }

    /// A TrustKit configuration written as JSON or YAML (what `pins extract --format trustkit` writes next to
    /// the plist): the `TSKConfiguration` dictionary, or a document holding it under that key.
    static func trustKitDictionary(_ text: String, root: Node, file: String) throws -> Loaded {
        // No timestamp resolution: an unquoted `2027-06-30` stays the string TrustKit would be given.
        guard
            let any = try? Yams.load(
                yaml: text.replacingOccurrences(of: "\t", with: " "), Resolver.default.removing(.timestamp)),
            let top = any as? [String: Any]
        else {
            throw InputFileError(file: file, line: root.line, reason: "a TrustKit configuration must be a mapping")
        }
        let nested = top["TSKConfiguration"] != nil
        guard let configuration = nested ? top["TSKConfiguration"] as? [String: Any] : top else {
            throw InputFileError(
                file: file, line: root.line(at: ["TSKConfiguration"]),
                reason: "TSKConfiguration is not a mapping: TrustKit raises at launch: the app would crash")
        }
        let base = nested ? ["TSKConfiguration"] : []
        let (set, findings, refusals) = PinConfigurationParser.trustKit(configuration, file: file) {
            root.line(at: base + $0)
        }
        return Loaded(
            pinSet: set, findings: findings,
            refusals: refusals.map {
                TrustKitLaunchFailure(
                    file: file, line: root.line(at: base + $0.keyPath), refusal: $0, inInfoPlist: false)
            })
    }

    /// The pin set of a parsed document; `lines` receives the line of every `domains.<name>` and
    /// `domains.<name>.pins.<i>` key path.
    /// `configuration` receives the `TSKPinnedDomains` dictionary the file stands for, with exactly the keys written.
    static func parse(
        _ root: Node, file: String, lines: inout [String: Int], configuration: inout [String: Any]
    ) throws -> PinSet {
        typealias Key = TrustKitLaunchCheck.Key
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
            var keys: [String: Any] = [:]
            for (fieldKey, field) in fields {
                let fieldName = fieldKey.scalarText ?? "?"
                lines["domains.\(name).\(fieldName)"] = fieldKey.line
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
                    keys[Key.publicKeyHashes] = entry.pins
                case "includeSubdomains":
                    entry.includeSubdomains = try bool(field, name, fieldName, fail)
                    keys[Key.includeSubdomains] = entry.includeSubdomains
                case "enforce":
                    entry.enforce = try bool(field, name, fieldName, fail)
                    keys[Key.enforcePinning] = entry.enforce
                case "excludeSubdomainFromParentPolicy":
                    entry.excludeSubdomainFromParentPolicy = try bool(field, name, fieldName, fail)
                    keys[Key.excludeSubdomainFromParentPolicy] = entry.excludeSubdomainFromParentPolicy
                case "expirationDate":
                    guard let date = field.scalarText, CalendarDay.date(from: date) != nil else {
                        throw fail(field, "\(name): expirationDate must be a YYYY-MM-DD date")
                    }
                    entry.expirationDate = date
                    keys[Key.expirationDate] = date
                default:
                    throw fail(
                        fieldKey, "\(name): unknown key '\(fieldName)' (expected \(entryKeys.joined(separator: ", ")))")
                }
            }
            if !entry.excludeSubdomainFromParentPolicy && fields["pins"] == nil {
                throw fail(key, "\(name): pins is missing")
            }
            out[name] = entry
            configuration[name] = keys
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
