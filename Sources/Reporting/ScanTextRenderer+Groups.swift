import TLSModel

extension ScanTextRenderer {
    /// The lines under a version's suites: the groups the server accepted (post-quantum ones marked) and the
    /// codepoints that were not tested; empty when neither is known.
    /// - Parameter result: one version's result.
    /// - Returns: zero, one or two lines, each ending in a newline.
    func groupLines(_ result: ProtocolResult) -> String {
        var out = ""
        if let groups = result.groups {
            var line = "      groups: "
            // A TLS 1.2 DHE suite with a prime of the server's own (not an RFC 7919 group) has no named group.
            let ownPrimes = Set(
                result.cipherSuites.filter { $0.keyExchange == .dhe }.compactMap(\.group).filter { $0.hasPrefix("DH-") }
            )
            if groups.isEmpty {
                line +=
                    ownPrimes.isEmpty
                    ? style.yellow("none accepted")
                    : "no named group (DHE with a prime of the server's own: \(ownPrimes.sorted().joined(separator: ", ")))"
            } else {
                line += groups.map(groupLabel).joined(separator: ", ")
                if !ownPrimes.isEmpty {
                    line += "; DHE with a prime of the server's own: \(ownPrimes.sorted().joined(separator: ", "))"
                }
            }
            if result.groupsComplete == false { line += style.yellow(" (incomplete)") }
            out += line + "\n"
        }
        if let untested = result.untestedSuites, !untested.isEmpty {
            out += "      " + style.yellow("not tested:") + " " + Self.untestedList(untested) + "\n"
        }
        return out
    }

    /// `0x000A, 0x0016 — offered, never answered`; past eight codepoints, the first eight and the count.
    static func untestedList(_ suites: [CipherSuite]) -> String {
        let shown = suites.prefix(8).map(\.hexCode).joined(separator: ", ")
        let more = suites.count > 8 ? ", … (\(suites.count) suites)" : ""
        return shown + more + " — offered, never answered"
    }

    /// `X25519MLKEM768 (post-quantum hybrid)`, `MLKEM768 (post-quantum)`, `x25519`.
    func groupLabel(_ group: AcceptedGroup) -> String {
        guard group.postQuantum else { return group.name }
        return group.name + " " + style.green(group.isHybrid ? "(post-quantum hybrid)" : "(post-quantum)")
    }
}
