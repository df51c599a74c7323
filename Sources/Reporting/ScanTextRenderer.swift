import Foundation
import TLSModel

/// The human report of `atscheck scan`: per endpoint, a table of versions and suites, the
/// certificate chain, the ATS verdict and warnings, fitted to ``width`` (``TextLayout``).
package struct ScanTextRenderer {
    package var style: TextStyle
    /// The time certificate validity is judged against (injected for golden tests).
    package var now: Date
    /// The display columns lines are fitted to (`Int.max`: as long as they are).
    package var width: Int
    /// The rule catalogue the summary's issues are grouped by.
    package var catalogue: RuleCatalogue

    /// - Parameters:
    ///   - catalogue: the rule catalogue.
    ///   - style: colour or not.
    ///   - now: the time certificate validity is judged against.
    ///   - width: the display columns lines are fitted to.
    package init(
        catalogue: RuleCatalogue, style: TextStyle = .plain, now: Date = Date(), width: Int = TextLayout.defaultWidth
    ) {
        self.catalogue = catalogue
        self.style = style
        self.now = now
        self.width = width
    }

    /// The whole report, each line fitted to ``width``.
    /// - Parameter report: the report.
    /// - Returns: text ending in a newline.
    package func render(_ report: ScanReport) -> String {
        TextLayout.fit(unfitted(report), width: width)
    }

    /// The report with only its tables laid out for ``width``; ``render(_:)`` wraps the other lines.
    func unfitted(_ report: ScanReport) -> String {
        var out = ""
        for endpoint in report.endpoints {
            out += render(endpoint)
            out += "\n"
        }
        for finding in report.findings {
            let location = [finding.file.map(safe), finding.line.map(String.init)].compactMap { $0 }.joined(
                separator: ":")
            out +=
                "\(severityLabel(finding.severity)) "
                + "\(location.isEmpty ? "" : location + ": ")\(safe(finding.message)) "
                + "[\(safe(finding.rule.rawValue))]\n"
        }
        out += style.bold("Summary:") + " " + Self.summary(report, catalogue: catalogue) + "\n"
        if let partial = report.partial { out += style.red("Partial report:") + " " + safe(partial.summary) + "\n" }
        if let data = report.trustData, !data.summary.isEmpty { out += "Trust data: \(safe(data.summary))\n" }
        return out
    }

    /// The summary line's counts: endpoints by verdict (an ambiguous verdict counted apart, not as a failure), and
    /// the problems of ``ReportIssues`` by severity — the alerts every CI format shows, one per problem.
    package static func summary(_ report: ScanReport, catalogue: RuleCatalogue) -> String {
        var parts: [String] = []
        let s = report.summary
        if !report.endpoints.isEmpty && report.endpoints.allSatisfy(\.profile.judgesCertificateOnly) {
            parts.append(
                "\(report.endpoints.count) chain check(s): \(s.passed) pass, \(s.failed) fail, "
                    + (s.ambiguous > 0 ? "\(s.ambiguous) ambiguous, " : "") + "\(s.unknown) unknown")
        } else if !report.endpoints.isEmpty {
            parts.append(
                "\(report.endpoints.count) endpoint(s): \(s.passed) pass, \(s.failed) fail, \(s.ambiguous) ambiguous, "
                    + "\(s.unreachable) not scanned, \(s.unknown) unknown; \(s.handshakes) handshakes")
        }
        if let quantum = SimulationWording.summaryCount(s) { parts.append(quantum) }
        let counts = IssueCounts(ReportIssues.of(report, catalogue: catalogue))
        if counts.total > 0 || report.endpoints.isEmpty {
            parts.append(
                "\(counts.total) finding(s): \(counts.errors) error, \(counts.warnings) warning, \(counts.notes) note")
        }
        return parts.joined(separator: "; ")
    }

    func render(_ endpoint: EndpointResult) -> String {
        let p = endpoint.profile
        var out = style.bold(safe(p.target))
        var where_ = [String]()
        if let address = p.address, address != p.host { where_.append("address \(safe(address))") }
        if let sni = p.sni, sni != p.host { where_.append("SNI \(safe(sni))") }
        if let proxy = p.proxy { where_.append("via proxy \(safe(proxy))") }
        if !where_.isEmpty { out += " (" + where_.joined(separator: ", ") + ")" }
        // The verdict is one phrase: `CERTIFICATE FAIL` is never split across lines.
        out = TextLayout.wrap(out, keeping: verdictLabel(endpoint), width: width, hang: 2) + "\n"
        if p.status != .completed {
            out += "  \(style.red(p.status.rawValue)): \(safe(p.error ?? "no reason given"))\n"
            out += "  \(p.handshakes) handshake(s), \(String(format: "%.2f", p.durationSeconds)) s\n" + dropsLine(p)
            return out
        }
        if let note = p.error { out += "  " + style.yellow("note: ") + safe(note) + "\n" }
        if !p.protocols.isEmpty { out += "\n" + protocolTable(p) + "\n" }
        if let cert = p.certificate {
            out += certificateSection(cert, fromFile: p.judgesCertificateOnly) + "\n"
        }
        out += simulationSection(p)
        out += atsSection(endpoint.ats, title: p.judgesCertificateOnly ? "Apple trust and ATS certificate rules" : nil)
        out += helloSizeLine(p)
        if p.handshakes > 0 {
            out +=
                "  "
                + style.dim(
                    ([
                        "\(p.handshakes) handshakes", String(format: "%.2f s", p.durationSeconds),
                    ] + [p.probeLibrary].compactMap { $0 }).joined(separator: ", ")) + "\n"
        }
        return out + dropsLine(p)
    }

    /// Connections the server dropped (closed, reset, cut off, timed out) and the retries they cost; empty when none.
    func dropsLine(_ p: ServerProfile) -> String {
        let drops =
            p.drops > 0 || p.retries > 0
            ? "  " + style.yellow("server dropped \(p.drops) of \(p.handshakes) connections; \(p.retries) retried")
                + "\n" : ""
        return drops + connectionsLine(p)
    }

    /// One line when the server served fewer connections at once than the scan would have used (issue 20).
    func connectionsLine(_ p: ServerProfile) -> String {
        guard let n = p.serverConnections else { return "" }
        let text =
            n == 1
            ? "server serves one connection at a time; the scan adapted to it"
            : "server serves at most \(n) connections at once; the scan adapted to it"
        return "  " + style.yellow(text) + "\n"
    }

    private func verdictLabel(_ endpoint: EndpointResult) -> String {
        if endpoint.profile.status != .completed { return style.red("NOT SCANNED") }
        if endpoint.profile.judgesCertificateOnly {
            switch endpoint.ats.verdict {
            case .pass: return style.green("CERTIFICATE PASS")
            case .fail: return style.red("CERTIFICATE FAIL")
            case .ambiguous: return style.yellow("CERTIFICATE AMBIGUOUS")
            case .unknown: return style.yellow("CERTIFICATE UNKNOWN")
            }
        }
        switch endpoint.ats.verdict {
        case .pass: return style.green("ATS PASS")
        case .fail: return style.red("ATS FAIL")
        case .ambiguous: return style.yellow("ATS AMBIGUOUS")
        case .unknown: return style.yellow("ATS UNKNOWN")
        }
    }

    private func severityLabel(_ severity: Finding.Severity) -> String {
        switch severity {
        case .error: return style.red("error:")
        case .warning: return style.yellow("warning:")
        case .note: return style.dim("note:")
        }
    }

    func protocolTable(_ p: ServerProfile) -> String {
        var out = "  " + style.bold("Protocols and cipher suites") + "\n"
        // One set of columns for every version's suites, sized from the names this endpoint has.
        let columns = TextLayout.columnWidths(p.protocols.flatMap(suiteRows))
        for result in p.protocols.sorted(by: { $0.version > $1.version }) {
            let state: String
            switch result.supported {
            case true?: state = style.green("yes")
            case false?: state = "no"
            case nil: state = style.yellow("unknown")
            }
            var line = "    \(result.version.name.padding(toLength: 8, withPad: " ", startingAt: 0)) \(state)"
            if result.supported == true {
                line += "  \(result.cipherSuites.count) suite(s)"
                switch result.serverPreference {
                case true?:
                    line +=
                        result.serverOrderComplete == false ? ", server order (first choice only)" : ", server order"
                    if result.chachaPrioritized == true { line += ", ChaCha20 first for clients that prefer it" }
                case false?: line += ", client order"
                case nil: break
                }
                if !result.enumerationComplete { line += style.yellow(" (incomplete)") }
            } else if let reason = result.reason, result.supported == nil {
                // The reason wraps under its own start.
                out += TextLayout.wrap(line + "  (\(safe(reason)))", width: width, hang: TextLayout.columns(line) + 3)
                out += "\n" + groupLines(result)
                continue
            }
            out += line + "\n"
            for row in TextLayout.table(suiteRows(result), indent: 6, width: width, columns: columns) {
                out += row + "\n"
            }
            out += groupLines(result)
        }
        return out
    }

    /// Code, name, forward secrecy and group of each suite of a version.
    private func suiteRows(_ result: ProtocolResult) -> [[String]] {
        result.cipherSuites.map { suite in
            [suite.code, suite.name, suite.forwardSecrecy ? "FS" : style.yellow("no FS"), suite.group ?? ""]
        }
    }

    func certificateSection(_ cert: CertificateReport, fromFile: Bool = false) -> String {
        var out =
            "  "
            + style.bold(fromFile ? "Certificate chain (from the file, in path order)" : "Certificate chain (as sent)")
            + "\n"
        for (index, facts) in cert.chain.enumerated() {
            let key = facts.curve.map { "EC \($0)" } ?? "\(facts.keyType) \(facts.keyBits)"
            out += "    [\(index)] \(safe(facts.subject))\n"
            out += TextLayout.wrap("        issuer \(safe(facts.issuer))", width: width, hang: 15) + "\n"
            out += "        \(key), \(facts.signatureAlgorithm), "
            out += "\(Self.day(facts.notBefore)) → \(Self.day(facts.notAfter)) (\(facts.lifetimeDays) days)\n"
            if index == 0 {
                let names = safe((facts.subjectAltNames + facts.ipAddresses).joined(separator: ", "))
                out += "        SAN: \(names.isEmpty ? style.yellow("none") : names)\n"
                out += "        SPKI SHA-256: \(facts.spkiSHA256)\n"
            }
            if facts.notAfter < now { out += "        " + style.red("expired") + "\n" }
            if facts.notBefore > now { out += "        " + style.red("not yet valid") + "\n" }
        }
        // Certificates OpenSSL could not read are named, never left out in silence: the chain above lacks them.
        for unparsed in cert.unparsedCertificates ?? [] {
            let place =
                unparsed.origin == .served
                ? "certificate \(unparsed.position) as sent" : "issuer \(unparsed.position) fetched (AIA)"
            out +=
                TextLayout.wrap(
                    "    " + style.red("unreadable") + " \(place): \(safe(unparsed.reason))", width: width, hang: 8)
                + "\n"
            out += "        SHA-256: \(unparsed.sha256)\n"
            if unparsed.origin == .served, unparsed.position == 1 {
                out += "        " + style.red("the leaf could not be read: the chain was not judged") + "\n"
            }
        }
        let trust: String
        switch cert.trusted {
        case true?:
            trust = style.green("trusted") + " (anchor: \(cert.anchor == .custom ? "--ca-file root" : "system root"))"
        case false?: trust = style.red("not trusted") + ": \(safe(cert.verifyError ?? "unknown error"))"
        case nil: trust = "not evaluated"
        }
        if let evaluation = cert.trust {
            out += "    Trust store: \(safe(evaluation.label))\n"
            if evaluation.storesDisagree {
                let ranges = evaluation.releaseRanges
                out += "    Apple stores: " + style.green("trusted by \(ranges.trusted)") + ", "
                out += style.red("not by \(ranges.untrusted)") + "\n"
            }
        }
        out += "    Trust: \(trust)\n"
        for fetch in cert.trust?.issuerFetches ?? [] {
            switch fetch.status {
            case .fetched:
                out +=
                    "    Issuer fetched (AIA): \(safe(fetch.url))\(fetch.cached == true ? " (fetched once this run)" : "")\n"
            case .failed, .disabled, .skipped:
                let reason = fetch.reason ?? "not fetched"
                let text = reason.hasPrefix(fetch.url) ? reason : "\(fetch.url): \(reason)"
                out += "    Issuer not fetched (AIA): " + style.yellow(safe(text)) + "\n"
            }
        }
        if let matches = cert.hostnameMatches {
            out +=
                "    Hostname: "
                + (matches ? style.green("matches a SAN") : style.red("matches no SAN (the CN is not used)")) + "\n"
        }
        if let stapled = cert.ocspStapled {
            out += "    OCSP stapling: \(stapled ? "yes" : "no")"
            if let staple = cert.revocation?.stapled { out += " — " + stapleSummary(staple) }
            out += "\n"
        }
        return out
    }

    /// The stapled response as trustd would take it: `good (…)`, `revoked on … (reason)`, or why it is not used.
    func stapleSummary(_ staple: StapledOCSPFacts) -> String {
        let signer = staple.responder == .delegated ? "a delegated responder" : "the issuer"
        let subject = staple.certificate.map { " for '\(safe($0))'" } ?? ""
        var times = staple.thisUpdate.map { "this update \(Self.day($0))" } ?? ""
        if let next = staple.nextUpdate { times += ", next \(Self.day(next))" }
        guard staple.usable else {
            let status = staple.status.map { "says \($0.rawValue), " } ?? ""
            let reason = staple.problem.map(\.rawValue) ?? "no status"
            return style.yellow("not used by trustd (\(reason))") + ": \(status)\(safe(staple.detail ?? reason))"
        }
        switch staple.status {
        case .revoked?:
            var text = "revoked"
            if let at = staple.revokedAt { text += " on \(Self.day(at))" }
            if let reason = staple.reason { text += " (\(reason))" }
            return style.red(text) + "\(subject), signed by \(signer); \(times)"
        case .unknown?: return style.yellow("unknown") + "\(subject), signed by \(signer); \(times)"
        case .good?, nil: return style.green("good") + "\(subject), signed by \(signer); \(times)"
        }
    }

    func atsSection(_ ats: ATSEvaluation, title: String? = nil) -> String {
        var out = "  " + style.bold(title ?? "App Transport Security") + ": \(ats.verdict.rawValue)"
        if let os = ats.osVersion { out += " (rules of OS \(os))" }
        out += "\n"
        for violation in ats.violations {
            out += "    " + style.red("✗") + " \(safe(violation.message)) [\(violation.rule)]\n"
            if let key = violation.keyPath { out += "      relax with: \(safe(key))\n" }
        }
        for reading in ats.readings {
            out += "    reading '\(safe(reading.name))': \(reading.verdict.rawValue)\n"
            for violation in reading.violations { out += "      ✗ \(safe(violation.message)) [\(violation.rule)]\n" }
        }
        for note in ats.notes { out += "    " + style.dim("note: \(safe(note))") + "\n" }
        return out
    }

    static func day(_ date: Date) -> String { CalendarDay.string(from: date) }

    /// Input-derived text with its control characters escaped (see ``ControlEscaping``).
    func safe(_ text: String) -> String { ControlEscaping.escape(text) }
}
