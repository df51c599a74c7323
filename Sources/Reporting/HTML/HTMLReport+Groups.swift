import TLSModel

extension HTMLReport {
    /// Whether the matrix has a groups column: some endpoint's groups were enumerated.
    func showsGroups(_ matrix: Matrix) -> Bool {
        matrix.rows.contains { row in row.result?.profile.protocols.contains { $0.groups != nil } == true }
    }

    /// The groups cell of a row: per version whose groups were enumerated (newest first), the groups the server
    /// accepted in its order, post-quantum ones marked with a chip that says so; a dash when none was enumerated.
    func groupsCell(_ result: EndpointResult?) -> String {
        let versions = (result?.profile.protocols ?? []).filter { $0.groups != nil }.sorted { $0.version > $1.version }
        guard !versions.isEmpty else { return "<td class=\"groups dim\">—</td>" }
        let lines = versions.map { version -> String in
            let groups = version.groups ?? []
            var line = "<span class=\"dim\">\(e(version.version.name))</span> "
            line += groups.isEmpty ? "none accepted" : groups.map(groupHTML).joined(separator: ", ")
            if version.groupsComplete == false { line += " <span class=\"dim\">(incomplete)</span>" }
            return line
        }
        return "<td class=\"groups\">" + lines.joined(separator: "<br>\n") + "</td>"
    }

    /// A group's IANA name; a post-quantum one followed by a chip with a symbol and the words.
    func groupHTML(_ group: AcceptedGroup) -> String {
        guard group.postQuantum else { return code(group.name) }
        let words = group.isHybrid ? "post-quantum hybrid" : "post-quantum"
        return code(group.name) + " <span class=\"chip s-note\"><span class=\"sym\">⚛</span> \(words)</span>"
    }

    /// Under a row's endpoint: per version, the codepoints that were not tested, so its suite list says nothing of
    /// them; empty when every codepoint was tested.
    func untestedNote(_ result: EndpointResult?) -> String {
        let versions = (result?.profile.protocols ?? []).sorted { $0.version > $1.version }
        var out = ""
        for version in versions {
            guard let untested = version.untestedSuites, !untested.isEmpty else { continue }
            out +=
                "<span class=\"sub\">\(e(version.version.name)) not tested: "
                + untested.prefix(8).map { code($0.hexCode) }.joined(separator: ", ")
                + (untested.count > 8 ? ", … (\(untested.count) suites)" : "") + " — offered, never answered</span>"
        }
        return out
    }
}
