import TLSModel

/// Renders a ``PolicyExplanation`` (`atscheck plist --explain`) as text: per host pattern, per OS era, one
/// line per client with ATS on/off, minimum TLS, forward secrecy, plain HTTP, NIAP and the deciding keys,
/// then each conflicting reading. The deciding keys wrap under their column; when too few columns are left for
/// them, they go on the line below the client's (``TextLayout``).
package enum ExplainTextRenderer {
    /// The whole explanation as text.
    /// - Parameters:
    ///   - explanation: the explanation.
    ///   - style: terminal styling (default: none).
    ///   - width: the display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: text ending in a newline.
    package static func render(
        _ explanation: PolicyExplanation, style: TextStyle = .plain, width: Int = TextLayout.defaultWidth
    ) -> String {
        var lines = ["Effective App Transport Security policy per host pattern and OS era (iOS numbering)"]
        if let configuration = explanation.configuration {
            lines.append("Build configuration: \(ControlEscaping.escape(configuration))")
        }
        if let lowest = explanation.lowestOS {
            let source = explanation.lowestOSSource.map { " (\(ControlEscaping.escape($0)))" } ?? ""
            lines.append("Oldest release: \(ControlEscaping.escape(lowest))\(source)")
        }
        let nameWidth = ClientKind.appClients.map(\.rawValue.count).max() ?? 0  // Apple's names, as in the JSON
        for host in explanation.hosts {
            lines += [
                "",
                style.bold(ControlEscaping.escape(host.pattern))
                    + style.dim(" — \(ControlEscaping.escape(kindText(host)))"),
            ]
            if let why = host.neverMatches {
                lines.append("  " + style.yellow("never matches a host") + ": \(ControlEscaping.escape(why))")
                lines.append("  hosts it was meant for get the policy of any other public host (below)")
            }
            if let why = host.cannotBeJudged {
                lines.append("  " + style.yellow("cannot be judged") + ": \(ControlEscaping.escape(why))")
            }
            for era in host.eras {
                lines.append("  iOS \(era.era)")
                for client in era.clients {
                    let name = client.client.rawValue.padding(toLength: nameWidth, withPad: " ", startingAt: 0)
                    let ats = client.atsApplies ? style.green("ATS on ") : style.yellow("ATS off")
                    let row = "    \(name)  \(ats)  \(cells(client))"
                    let keys = "← \(ControlEscaping.escape(decided(client.decidedBy)))"
                    // The keys stay beside the cells only when the column left holds the longest of them: a key
                    // path cannot be broken, and one wider than the column used to spill to the margin.
                    let longest = decided(client.decidedBy).split(separator: " ").map(TextLayout.columns).max() ?? 0
                    let room = width - TextLayout.columns(row) - 4
                    if room >= TextLayout.minimumText && room >= longest + 2 {
                        lines.append(
                            TextLayout.wrap(row + "  " + keys, width: width, hang: TextLayout.columns(row) + 4))
                    } else {
                        // Too few columns left: the keys go on the line below, the cells' padding trimmed.
                        lines.append(String(row.reversed().drop { $0 == " " }.reversed()))
                        if longest + 9 <= width {
                            lines.append(TextLayout.wrap("      " + keys, width: width))
                        } else {
                            lines += keyLines(decided(client.decidedBy), width: width)
                        }
                    }
                    for c in client.conflicts {
                        let other = [
                            c.atsApplies ? "ATS on" : "ATS off", "\(c.minimumTLS.name)+",
                            c.forwardSecrecyRequired ? "PFS" : "no PFS", c.httpAllowed ? "HTTP allowed" : "HTTPS only",
                        ].joined(separator: ", ")
                        lines.append(
                            "      " + style.yellow("CONFLICT \(c.conflict)")
                                + ": under \(c.reading): \(other) (\(c.reason)); \(c.summary)")
                    }
                }
            }
        }
        if !explanation.notes.isEmpty {
            lines += ["", "Notes:"]
            lines += explanation.notes.map { "- \(ControlEscaping.escape($0))" }
        }
        return TextLayout.fit(lines.joined(separator: "\n"), width: width) + "\n"
    }

    /// Deciding keys too wide to wrap beside the hang: one a line, each at the hang (the arrow's at 6, the others' at
    /// 8) or, when it cannot fit there, moved left only as far as the width needs; a key wider than the width stays at
    /// the hang, alone on its line (the layout's rule for a word it cannot break). Wrapping them as one list moved
    /// such keys to the margin.
    static func keyLines(_ keys: String, width: Int) -> [String] {
        let names = keys.components(separatedBy: ", ")
        var out: [String] = []
        for (index, name) in names.enumerated() {
            let key = ControlEscaping.escape(name) + (index + 1 < names.count ? "," : "")
            var text = key
            var hang = 8
            if index == 0 {
                if TextLayout.columns("← " + key) + 6 <= width || TextLayout.columns("← " + key) > width {
                    text = "← " + key
                    hang = 6
                } else {
                    out.append("      ←")
                }
            }
            let columns = TextLayout.columns(text)
            let indent = columns + hang <= width || columns > width ? hang : width - columns
            out.append(String(repeating: " ", count: indent) + text)
        }
        return out
    }

    static func kindText(_ host: HostPatternPolicy) -> String {
        switch host.kind {
        case .exceptionDomain: return "NSExceptionDomains entry"
        case .subdomain: return "subdomains (e.g. \(host.exampleHost))"
        case .otherPublicHost: return "no entry (e.g. \(host.exampleHost))"
        case .localName: return "local name (e.g. \(host.exampleHost))"
        case .ipLiteral: return "IP literal"
        case .neverMatches: return "NSExceptionDomains entry that never matches"
        case .unresolved: return "NSExceptionDomains entry named by a build setting not given"
        }
    }

    /// `TLSv1.2+  PFS     HTTPS only`, plus `NIAP FCP_v2.1` when it applies.
    static func cells(_ c: ClientPolicy) -> String {
        var parts = [
            "\(c.minimumTLS.name)+", c.forwardSecrecyRequired ? "PFS   " : "no PFS",
            c.httpAllowed ? "HTTP allowed" : "HTTPS only  ",
        ]
        if c.niap { parts.append("NIAP FCP_v2.1") }
        return parts.joined(separator: "  ")
    }

    static func decided(_ keys: [String]) -> String {
        let prefix = "NSAppTransportSecurity."
        guard !keys.isEmpty else { return "OS default" }
        return keys.map { $0.hasPrefix(prefix) ? String($0.dropFirst(prefix.count)) : $0 }.joined(separator: ", ")
    }
}
