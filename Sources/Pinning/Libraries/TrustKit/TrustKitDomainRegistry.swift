import Foundation

/// TrustKit's domain registry: Google's domain-registry-provider as TrustKit bundles it
/// (`TrustKit/Dependencies/domain_registry/private/registry_search.c`, `trie_search.c`), searching TrustKit's own
/// snapshot of the Public Suffix List (``bundledRules``, 2018-07-10, written by
/// `scripts/trustkit-registry/generate.py`), not today's list.
///
/// TrustKit asks it one question, `GetRegistryLength`, in two places of `parse_configuration.m`: a pinned
/// domain whose registry length is 0 is invalid, and `TSKIncludeSubdomains` on a domain that is a registry as a
/// whole (`com`, `co.uk`, `appspot.com`) is refused. The search is ported as written, quirks included: a rule
/// reached through a node that is not itself a rule counts for nothing (`kawasaki.jp`, covered only by
/// `*.kawasaki.jp`, has registry length 0), and a name whose top label is not in the list has none.
package struct TrustKitDomainRegistry: Sendable {
    /// One trie node: a label, whether a rule ends here, and its children by label.
    struct Node: Sendable {
        var label: String
        var isRule = false
        var children: [String: Int] = [:]
        /// The children are all childless: the generated tables keep them in the leaf table, which the search
        /// reads differently (it stops after one leaf).
        var hasLeafChildren = false
    }

    private var nodes: [Node] = [Node(label: "")]

    /// The registry TrustKit ships (its 2018-07-10 snapshot of the Public Suffix List).
    package static let bundled = TrustKitDomainRegistry(rules: bundledRules)

    /// A registry of public suffix rules in the list's syntax (`com`, `*.ck`, `!www.ck`), one per line; blank
    /// lines and `//` comments are skipped.
    /// - Parameter rules: The rules.
    package init(rules: String) {
        for line in rules.split(whereSeparator: \.isNewline) {
            let rule = line.trimmingCharacters(in: .whitespaces)
            guard !rule.isEmpty, !rule.hasPrefix("//") else { continue }
            var node = 0
            for label in rule.lowercased().split(separator: ".", omittingEmptySubsequences: false).reversed() {
                let label = String(label)
                if let child = nodes[node].children[label] {
                    node = child
                } else {
                    nodes.append(Node(label: label))
                    nodes[node].children[label] = nodes.count - 1
                    node = nodes.count - 1
                }
            }
            nodes[node].isRule = true
        }
        for i in nodes.indices {
            nodes[i].hasLeafChildren =
                !nodes[i].children.isEmpty && nodes[i].children.values.allSatisfy { nodes[$0].children.isEmpty }
        }
    }

    /// `GetRegistryLength`: the length in bytes of the registry part of `hostname` (`3` for `www.google.com`,
    /// `5` for `a.b.co.uk` and for `co.uk` itself), or 0 when the name has none the rules know: an unknown top
    /// label, a single label, an IP address, a non-ASCII name, more than 255 bytes, two trailing dots.
    /// - Parameter hostname: The name as written (case-insensitive; one trailing dot is a fully qualified name).
    /// - Returns: The registry length; a trailing dot is counted in it, as TrustKit counts it.
    package func registryLength(_ hostname: String) -> Int {
        // `[NSString UTF8String]` ends at the first NUL.
        var buffer = Array(hostname.utf8.prefix { $0 != 0 })
        guard buffer.count <= 255, !buffer.contains(where: { $0 > 0x7F }) else { return 0 }
        for i in buffer.indices {
            if buffer[i] == UInt8(ascii: ".") {
                buffer[i] = 0
            } else if buffer[i] >= UInt8(ascii: "A") && buffer[i] <= UInt8(ascii: "Z") {
                buffer[i] += 32
            }
        }
        let end = buffer.count
        var start = 0
        while start < end && buffer[start] == 0 { start += 1 }
        guard let registry = registryStart(buffer, start: start, end: end), registry >= start, registry < end else {
            return 0
        }
        return end - registry
    }

    /// `GetRegistryForHostname`: where the registry begins, walking the labels from the right.
    private func registryStart(_ buffer: [UInt8], start: Int, end: Int) -> Int? {
        var cursor: Int?
        func byte(_ i: Int) -> UInt8 { i < end ? buffer[i] : 0 }
        // `GetNextHostnamePart`: the next label to the left, nil at the first empty, `*` or `!` label.
        func nextLabel() -> Int? {
            if cursor == nil { cursor = end > start && buffer[end - 1] == 0 ? end - 1 : end }
            let last = cursor!
            guard start <= last else { return nil }
            var found: Int?
            var i = last - 1
            while i >= start {
                if buffer[i] == 0 {
                    cursor = i
                    found = i + 1
                    break
                }
                i -= 1
            }
            if found == nil, last != start, buffer[start] != 0 {
                cursor = start
                found = start
            }
            guard let found, byte(found) != 0, byte(found) != UInt8(ascii: "!"), byte(found) != UInt8(ascii: "*")
            else { return nil }
            return found
        }
        func label(at i: Int) -> String {
            var j = i
            while j < end && buffer[j] != 0 { j += 1 }
            return String(decoding: buffer[i..<j], as: UTF8.self)
        }
        // An exception rule (`!city`) puts the registry one label to the right of the one it matched.
        func registry(_ node: Int, at position: Int, _ label: String) -> Int {
            nodes[node].label.hasPrefix("!") ? position + label.utf8.count + 1 : position
        }
        var current = 0
        var lastValid: Int?
        while let position = nextLabel() {
            let text = label(at: position)
            guard let node = child(of: current, matching: text) else { break }
            current = node
            lastValid = nodes[node].isRule ? registry(node, at: position, text) : nil
            if nodes[node].hasLeafChildren {
                guard let leafPosition = nextLabel() else { break }
                let leafText = label(at: leafPosition)
                guard let leaf = child(of: node, matching: leafText) else { break }
                return registry(leaf, at: leafPosition, leafText)
            }
        }
        return lastValid
    }

    /// Whether any rule ends in this top-level label (`com`, `uk`, `bn` for `*.bn`).
    func knowsTopLevelLabel(_ label: String) -> Bool { nodes[0].children[label.lowercased()] != nil }

    /// `FindRegistryNode` / `FindRegistryLeafNode`: the exact label, else a wildcard, with its exception preferred.
    private func child(of node: Int, matching label: String) -> Int? {
        let children = nodes[node].children
        if let exact = children[label] { return exact }
        guard let wildcard = children["*"] else { return nil }
        return children["!" + label] ?? wildcard
    }
}
