import TLSModel

/// Renders ``TLSDiagnostics`` as macOS 26's `nscurl --tls-diagnostics` prints its result (the three `Negotiated TLS …`
/// lines; docs/usage.md), framed by lines that say which simulated client it comes from, and a failure as nscurl's
/// `--ats-diagnostics` prints one (`Result : FAIL`, `Error : …`).
package enum TLSDiagnosticsTextRenderer {
    /// The text of `diagnose --tls-diagnostics`.
    /// - Parameters:
    ///   - diagnostics: what the simulation found.
    ///   - findings: the findings beside it (certificates about to expire), one line each.
    ///   - width: the display columns lines are fitted to (`Int.max`: as long as they are).
    /// - Returns: text ending in a newline.
    package static func render(
        _ diagnostics: TLSDiagnostics, findings: [Finding] = [], width: Int = TextLayout.defaultWidth
    ) -> String {
        let e = ControlEscaping.escape
        var lines = ["Starting TLS Diagnostics", "", "TLS connection to \(e(diagnostics.url))."]
        if let simulation = diagnostics.simulation {
            lines.append(
                "(Simulated by atscheck with the \(e(simulation.client)) ClientHello, profile "
                    + "\(e(simulation.profile)) (\(e(simulation.evidence))), for iOS \(diagnostics.osVersion); nscurl "
                    + "connects from macOS itself.)")
        }
        lines += ["", "---"]
        switch diagnostics.result {
        case .pass:
            lines += [
                "Negotiated TLS version (codepoint): \(diagnostics.negotiatedVersion ?? "unknown")",
                "Negotiated TLS key exchange group (name): \(e(diagnostics.negotiatedGroup ?? "none"))",
                "Negotiated TLS ciphersuite (codepoint): \(diagnostics.negotiatedSuite ?? "unknown")",
                "---",
                "Result : PASS",
            ]
            if let simulation = diagnostics.simulation { lines.append(summary(simulation)) }
        case .fail, .notSimulated:
            lines += ["Result : \(diagnostics.result.rawValue)", "Error : \(e(diagnostics.error ?? "unknown"))", "---"]
        }
        var after: [String] = []
        if diagnostics.result == .notSimulated && !diagnostics.simulatedReleases.isEmpty {
            after.append("Simulated releases: \(diagnostics.simulatedReleases.map(e).joined(separator: ", "))")
        }
        if diagnostics.simulation?.evidence == "inferred" {
            after.append(
                "Note: this era's ClientHello is inferred from sources, not an exact capture; the real client may "
                    + "differ.")
        }
        if !after.isEmpty { lines += [""] + after }
        if !findings.isEmpty { lines.append("") }
        for finding in findings {
            lines.append("\(finding.severity.rawValue): \(e(finding.message)) [\(finding.rule)]")
        }
        return lines.map { TextLayout.fit($0, width: width) }.joined(separator: "\n") + "\n"
    }

    /// `TLSv1.3, TLS_AES_256_GCM_SHA384, X25519MLKEM768 — quantum-secure`: the names behind the code points.
    static func summary(_ simulation: ClientSimulation) -> String {
        var parts = [simulation.version?.description, simulation.suite?.name, simulation.group?.name].compactMap {
            $0
        }
        if let scheme = simulation.signatureScheme { parts.append(scheme) }
        var text = ControlEscaping.escape(parts.joined(separator: ", "))
        if let quantum = simulation.quantumSecure {
            text += quantum ? " — quantum-secure" : " — not quantum-secure"
        }
        return text
    }
}
