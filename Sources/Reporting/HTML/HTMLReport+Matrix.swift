import TLSModel

extension HTMLReport {
    /// The endpoints × OS-era matrix: a row per endpoint, a column per era judged.
    ///
    /// A live `app` run has its build's eras (each endpoint judged under each, from one probe); `scan`, `audit`,
    /// `merge`, `cert` and `diagnose` judge under one OS release, which is one column (several after a merge of
    /// runs under different releases).
    struct Matrix {
        struct Column: Equatable {
            /// `iOS 12`, `iOS 26.4`, or `ATS` when no endpoint was judged.
            var label: String
            /// The era as the data names it (`12`, `26.4`); nil for the `ATS` column.
            var os: String?
        }

        struct Cell {
            var mark: HTMLMark
            /// The first violation, or why the endpoint was not judged (the cell's tooltip).
            var detail: String?
        }

        struct Row {
            /// The endpoint as shown (`host:port`, `http://host:port`).
            var endpoint: String
            /// The app's line over its eras (`fails on iOS 12–12.1, passes on 13+`).
            var summary: String?
            var cells: [Cell]
            /// The scanned endpoint behind the row (its violations, notes and status); nil when unknown.
            var result: EndpointResult?
            /// The page anchor of the row's failure entry.
            var anchor: String

            /// The worst mark of the row.
            var worst: HTMLMark { cells.map(\.mark).max { $0.rank < $1.rank } ?? .unknown }

            /// Whether the row has an entry under "What fails": it fails, is ambiguous or was not scanned.
            var needsEntry: Bool { worst.isFailure || worst == .notScanned }

            /// The rule ids behind the row's failure, in report order without repeats.
            var rules: [RuleID] {
                guard let result else { return [] }
                if let scanRule = RuleID.Scan.id(for: result.profile.status) { return [scanRule] }
                var seen = Set<RuleID>()
                let violations = result.ats.violations + result.ats.readings.flatMap(\.violations)
                return violations.map(\.rule).filter { seen.insert($0).inserted }
            }
        }

        var columns: [Column]
        var rows: [Row]

        init(_ document: HTMLReport.Content) {
            let results = document.scan?.endpoints ?? []
            if let live = document.app?.live {
                columns = live.eras.map { Column(label: "iOS \($0)", os: $0) }
                let aligned = results.count == live.endpoints.count
                rows = live.endpoints.enumerated().map { index, endpoint in
                    let judged = endpoint.status == .completed || endpoint.endpoint.hasPrefix("http://")
                    let cells = live.eras.map { era -> Cell in
                        guard judged else { return Cell(mark: .notScanned, detail: endpoint.summary) }
                        guard let verdict = endpoint.eras.first(where: { $0.os == era }) else {
                            return Cell(mark: .unknown, detail: "not judged under iOS \(era)")
                        }
                        return Cell(mark: HTMLMark(verdict.verdict), detail: verdict.reason)
                    }
                    return Row(
                        endpoint: endpoint.endpoint, summary: endpoint.summary, cells: cells,
                        result: aligned ? results[index] : nil, anchor: "endpoint-\(index + 1)")
                }
                return
            }
            var eras: [String] = []
            for result in results {
                if let os = result.ats.osVersion, !eras.contains(os) { eras.append(os) }
            }
            columns = eras.isEmpty ? [Column(label: "ATS", os: nil)] : eras.map { Column(label: "iOS \($0)", os: $0) }
            let columns = self.columns
            rows = results.enumerated().map { index, result in
                let profile = result.profile
                let cells = columns.map { column -> Cell in
                    if profile.status != .completed {
                        return Cell(mark: .notScanned, detail: profile.error ?? profile.status.rawValue)
                    }
                    if let os = result.ats.osVersion, let era = column.os, os != era {
                        return Cell(mark: .notScanned, detail: "not judged under iOS \(era)")
                    }
                    let detail = result.ats.violations.first?.message ?? result.ats.notes.first
                    return Cell(mark: HTMLMark(result.ats.verdict), detail: detail)
                }
                let label = profile.effectiveScheme == "http" ? "http://" + profile.target : profile.target
                return Row(
                    endpoint: label, summary: nil, cells: cells, result: result,
                    anchor: "endpoint-\(index + 1)")
            }
        }
    }

    /// The matrix, its legend, and a line of what it covers; nothing when no endpoint was checked.
    func matrixSection(_ matrix: Matrix) -> String {
        guard !matrix.rows.isEmpty else {
            if document.app != nil, document.app?.live == nil {
                return section(
                    "matrix", "Endpoints × OS era",
                    "<p>Offline run: the endpoints harvested from the bundle were not checked live.</p>\n")
            }
            return ""
        }
        var out = "<div class=\"scroll\"><table class=\"matrix\">\n<thead><tr><th scope=\"col\">Endpoint</th>"
        for column in matrix.columns { out += "<th scope=\"col\" class=\"era\">\(e(column.label))</th>" }
        let groups = showsGroups(matrix)
        if groups { out += "<th scope=\"col\">Key-exchange groups</th>" }
        let simulated = showsSimulations(matrix)
        if simulated {
            out += "<th scope=\"col\">Apple clients (simulated)</th><th scope=\"col\">Quantum-secure (iOS 26)</th>"
        }
        out += "</tr></thead>\n<tbody>\n"
        for row in matrix.rows {
            let name = row.needsEntry ? "<a href=\"#\(row.anchor)\">\(code(row.endpoint))</a>" : code(row.endpoint)
            out += "<tr><th scope=\"row\">\(name)"
            if let summary = row.summary { out += "<span class=\"sub\">\(e(summary))</span>" }
            out += untestedNote(row.result)
            if !row.rules.isEmpty {
                out += "<span class=\"rules\">\(row.rules.map(ruleLink).joined(separator: " "))</span>"
            }
            out += "</th>"
            for cell in row.cells {
                let title = cell.detail.map { " title=\"\(e($0))\"" } ?? ""
                out += "<td class=\"cell \(cell.mark.cssClass)\"\(title)>\(cell.mark.html)</td>"
            }
            if groups { out += groupsCell(row.result) }
            if simulated { out += simulationsCell(row.result) + quantumCell(row.result) }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table></div>\n"
        out += "<ul class=\"legend\">\n"
        for mark in HTMLMark.matrixLegend { out += "<li>\(mark.chip) \(e(mark.meaning))</li>\n" }
        out += "</ul>\n"
        let eras = matrix.columns.count
        let lead =
            "<p class=\"lead\">\(plural(matrix.rows.count, "endpoint", "endpoints")) × "
            + "\(plural(eras, "OS release", "OS releases")) judged, from one probe per endpoint. Under each endpoint: "
            + "the rules it fails; a cell's tooltip gives its first violation, and the endpoint's entry below every "
            + "rule, why it fails and how to fix it.</p>\n"
        return section("matrix", "Endpoints × OS era", lead + out)
    }

    /// A rule id linking to its entry in "Rules in this report".
    func ruleLink(_ rule: RuleID) -> String {
        "<a href=\"#\(Self.anchor(rule))\">\(code(rule.rawValue))</a>"
    }

    /// A fragment id for a rule: `rule-` and the id with every character but ASCII letters, digits and `-` as `-`
    /// (a rule id read from a merged JSON report is input).
    static func anchor(_ rule: RuleID) -> String {
        let safe = rule.rawValue.unicodeScalars.map { scalar -> String in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-")
                ? String(scalar) : "-"
        }
        return "rule-" + safe.joined()
    }
}
