/// Fits text to a terminal's width: word wrapping with hanging indents, and tables sized from their contents.
///
/// Widths are display columns: ANSI SGR escapes (``TextStyle``) take none, East Asian wide characters take two.
/// A line is broken only at spaces, never inside a word: a single word (a URL, a hash, a key path) longer than
/// the width stands alone on its line, unbroken. Continuation lines start under the text of their item (after a
/// `✗ `, a `[0] `, a `note: `, a `key: `), so a wrapped item never looks like the next one.
package enum TextLayout {
    /// The width when nothing says otherwise (output not on a terminal, no `COLUMNS`).
    package static let defaultWidth = 80

    /// The fewest columns the wrapping text of a row keeps; below this a renderer stacks a table instead.
    static let minimumText = 24

    // MARK: Measuring

    /// The display columns of `text`: ANSI escapes count none, wide characters two.
    /// - Parameter text: text that may hold ANSI SGR escapes.
    /// - Returns: the columns a terminal uses to show it.
    package static func columns<S: StringProtocol>(_ text: S) -> Int {
        // Printable ASCII (nearly every line atscheck writes) is one column a byte: counted without the Unicode
        // tables, which made `plist --explain` of 10,000 domains spend three quarters of its time here.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        var total = 0
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                // CSI ends at its final byte (0x40–0x7E); `[` right after ESC is the introducer, not the end.
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
                continue
            }
            if scalar == "\u{1B}" {
                inEscape = true
                continue
            }
            total += width(of: scalar)
        }
        return total
    }

    /// The columns of one scalar: 0 for combining marks and zero-width characters, 2 for wide ones, else 1.
    static func width(of scalar: Unicode.Scalar) -> Int {
        let v = scalar.value
        if v >= 0x20 && v < 0x7F { return 1 }
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format: return 0
        default: break
        }
        if v == 0x200B { return 0 }
        return wideRanges.contains { $0.contains(v) } ? 2 : 1
    }

    /// East Asian wide and emoji ranges: two columns.
    private static let wideRanges: [ClosedRange<UInt32>] = [
        0x1100...0x115F, 0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
        0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE30...0xFE4F, 0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F300...0x1F64F,
        0x1F900...0x1F9FF, 0x20000...0x3FFFD,
    ]

    /// `text` without its ANSI escapes.
    static func plain(_ text: String) -> String {
        guard text.contains("\u{1B}") else { return text }
        var out = String.UnicodeScalarView()
        var inEscape = false
        for scalar in text.unicodeScalars {
            if inEscape {
                if (0x40...0x7E).contains(scalar.value) && scalar != "[" { inEscape = false }
            } else if scalar == "\u{1B}" {
                inEscape = true
            } else {
                out.append(scalar)
            }
        }
        return String(out)
    }

    /// `text` padded with spaces to `width` display columns (unchanged when it is as wide already).
    static func pad(_ text: String, _ width: Int) -> String {
        let have = columns(text)
        return have >= width ? text : text + String(repeating: " ", count: width - have)
    }

    // MARK: Wrapping

    /// One line (no newline in it) broken at spaces so that each piece fits `width`, continuation lines indented
    /// by `hang` columns.
    ///
    /// Spacing inside a piece is kept as written (padded cells stay aligned); the spaces at a break are dropped.
    /// A word that does not fit after `hang` goes two columns in from the line's own indent, or further left, rather
    /// than past the width; only a word wider than the whole width passes it, alone on its line (two columns in).
    /// - Parameters:
    ///   - line: the line, which may hold ANSI escapes.
    ///   - width: the display columns available.
    ///   - hang: the indent of continuation lines (nil: ``hangingIndent(of:)``).
    /// - Returns: the pieces joined with newlines (no trailing newline).
    package static func wrap(_ line: String, width: Int, hang: Int? = nil) -> String {
        guard columns(line) > width else { return line }
        let leading = line.prefix { $0 == " " }.count
        // A hang guessed from the line that leaves its text too narrow a column falls back to two in from the
        // line's indent (a hang the caller gives is kept: a table decides for itself when to stack).
        let hang =
            hang
            ?? {
                let guessed = hangingIndent(of: line)
                return width - guessed >= 16 ? guessed : min(guessed, leading + 2)
            }()
        // (gap before the word, the word), the first gap being the line's indent.
        var tokens: [(gap: Substring, word: Substring)] = []
        var index = line.startIndex
        while index < line.endIndex {
            let gapEnd = line[index...].firstIndex { $0 != " " } ?? line.endIndex
            let wordEnd = line[gapEnd...].firstIndex(of: " ") ?? line.endIndex
            if gapEnd < wordEnd { tokens.append((line[index..<gapEnd], line[gapEnd..<wordEnd])) }
            index = wordEnd
        }
        var lines: [String] = []
        var current = ""
        var used = 0
        for (position, token) in tokens.enumerated() {
            let words = columns(token.word)
            if position == 0 {
                current = String(token.gap) + token.word
                used = token.gap.count + words
                continue
            }
            if used + token.gap.count + words <= width {
                current += token.gap + token.word
                used += token.gap.count + words
                continue
            }
            lines.append(current)
            // A word too wide for the hang moves left until it fits; one wider than the whole width goes two columns
            // in from the line's indent, as far left as a continuation goes.
            let indent =
                [hang, leading + 2, leading, 0].first { $0 + words <= width && $0 <= hang } ?? min(hang, leading + 2)
            current = String(repeating: " ", count: indent) + token.word
            used = indent + words
        }
        lines.append(current)
        return lines.joined(separator: "\n")
    }

    /// `line` wrapped (``wrap(_:width:hang:)``), then `tail`, a phrase never broken (a verdict such as `ATS FAIL`),
    /// two spaces after it on its last line when it fits there, else on a line of its own at the hang.
    /// - Parameters:
    ///   - line: the line, which may hold ANSI escapes.
    ///   - tail: the phrase kept whole.
    ///   - width: the display columns available.
    ///   - hang: the indent of continuation lines.
    /// - Returns: the pieces joined with newlines (no trailing newline).
    static func wrap(_ line: String, keeping tail: String, width: Int, hang: Int) -> String {
        if columns(line) + 2 + columns(tail) <= width { return line + "  " + tail }
        let wrapped = wrap(line, width: width, hang: hang)
        let last = wrapped.split(separator: "\n", omittingEmptySubsequences: false).last ?? ""
        if columns(last) + 2 + columns(tail) <= width { return wrapped + "  " + tail }
        return wrapped + "\n" + String(repeating: " ", count: hang) + tail
    }

    /// Every line of `text` that is wider than `width` wrapped (``wrap(_:width:hang:)``) with the hanging indent its
    /// start suggests; lines that fit are untouched.
    /// - Parameters:
    ///   - text: lines joined by newlines (a trailing newline is kept).
    ///   - width: the display columns available.
    /// - Returns: the text, fitted.
    package static func fit(_ text: String, width: Int) -> String {
        guard width < Int.max else { return text }
        return text.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            wrap(String(line), width: width)
        }.joined(separator: "\n")
    }

    /// Where the text of the item a line starts begins: after the indent and a marker (`✗ `, `- `, `[0] `, a
    /// severity before a rule id, or a short `key: ` of at most three words, such as `error: ` or `Trust store: `).
    /// Without a marker, two columns in from the indent.
    /// - Parameter line: the line, which may hold ANSI escapes.
    /// - Returns: the indent of its continuation lines.
    package static func hangingIndent(of line: String) -> Int {
        let text = plain(line)
        let leading = text.prefix { $0 == " " }.count
        let rest = text.dropFirst(leading)
        for bullet in ["✗ ", "✓ ", "- ", "+ ", "− ", "~ ", "* ", "← "] where rest.hasPrefix(bullet) {
            return leading + columns(bullet)
        }
        if rest.hasPrefix("["), let close = rest.firstIndex(of: "]"), rest[rest.index(after: close)...].hasPrefix(" "),
            rest[rest.index(after: rest.startIndex)..<close].allSatisfy(\.isNumber)
        {
            return leading + columns(rest[...close]) + 1
        }
        // `warning pins.backup.missing: …` (a pin report's finding): the text starts after the severity.
        for severity in ["error ", "warning ", "note "] where rest.hasPrefix(severity) {
            let rule = rest.dropFirst(severity.count).prefix { $0 != " " }
            if rule.contains("."), rule.hasSuffix(":") { return leading + severity.count }
        }
        if let colon = rest.range(of: ": ") {
            let key = rest[..<colon.lowerBound]
            if !key.isEmpty, columns(key) <= 24, key.split(separator: " ").count <= 3, !key.contains("(") {
                return leading + columns(key) + 2
            }
        }
        return leading + 2
    }

    // MARK: Tables

    /// The width of each column of `rows`: its widest cell, a row's last cell left out (it runs on, as the last
    /// column does).
    /// - Parameter rows: the cells of each row.
    /// - Returns: one width per column.
    static func columnWidths(_ rows: [[String]]) -> [Int] {
        var widths = [Int](repeating: 0, count: rows.map(\.count).max() ?? 0)
        for row in rows {
            for (column, cell) in row.dropLast().enumerated() { widths[column] = max(widths[column], columns(cell)) }
        }
        return widths
    }

    /// Rows of cells laid out in columns sized from their contents, two spaces apart, each row indented by
    /// `indent`; the last cell of a row wraps under its column's start. When that column would keep fewer than
    /// `minimumLast` columns (and fewer than its widest cell needs), each row is stacked instead: its first cells on
    /// one line, the last cell on the lines below, indented two more.
    /// - Parameters:
    ///   - rows: the cells of each row (an empty last cell is left off).
    ///   - indent: the indent of every row.
    ///   - width: the display columns available.
    ///   - columns: the column widths (default: ``columnWidths(_:)`` of `rows`; several tables can share them).
    ///   - minimumLast: the fewest columns the last column may keep before rows are stacked.
    /// - Returns: one string per row (a row may hold newlines).
    static func table(
        _ rows: [[String]], indent: Int, width: Int, columns widths: [Int]? = nil, minimumLast: Int = minimumText
    ) -> [String] {
        let widths = widths ?? columnWidths(rows)
        guard !widths.isEmpty else { return rows.map { _ in "" } }
        let margin = String(repeating: " ", count: indent)
        // The start of the last column: the indent plus every column before it and its two spaces.
        let lastStart = indent + widths.dropLast().reduce(0) { $0 + $1 + 2 }
        let widestLast = rows.filter { $0.count == widths.count }.map { columns($0.last ?? "") }.max() ?? 0
        let stack = width - lastStart < min(minimumLast, widestLast)
        return rows.map { row in
            var cells = row
            while cells.count > 1, cells.last?.isEmpty == true { cells.removeLast() }
            guard let last = cells.last else { return margin }
            if cells.count == 1 { return wrap(margin + last, width: width, hang: indent + 2) }
            let head = margin + cells.dropLast().enumerated().map { pad($1, widths[$0]) }.joined(separator: "  ")
            if stack && cells.count == widths.count {
                let trimmed = String(head.reversed().drop { $0 == " " }.reversed())
                return wrap(trimmed, width: width, hang: indent + 2) + "\n"
                    + wrap(margin + "  " + last, width: width, hang: indent + 2)
            }
            return wrap(head + "  " + last, width: width, hang: Self.columns(head) + 2)
        }
    }

    /// Rows under a header row (its first cell may be empty) as columns, two spaces apart, when every row fits the
    /// width; else stacked, row by row: the first cell on its line, then each other cell as `header: cell`, two
    /// columns further in (a comparison never splits a row's cells across lines under the wrong heading).
    /// - Parameters:
    ///   - header: the heading of each column.
    ///   - rows: the cells of each row, as many as `header` has.
    ///   - indent: the indent of every row.
    ///   - width: the display columns available.
    /// - Returns: the lines (a stacked row is several).
    static func keyedTable(header: [String], rows: [[String]], indent: Int, width: Int) -> [String] {
        let laidOut = table([header] + rows, indent: indent, width: .max)
        if laidOut.allSatisfy({ columns($0) <= width }) { return laidOut }
        let margin = String(repeating: " ", count: indent)
        return rows.flatMap { row in
            [wrap(margin + (row.first ?? ""), width: width, hang: indent + 2)]
                + zip(header.dropFirst(), row.dropFirst()).map { wrap("\(margin)  \($0): \($1)", width: width) }
        }
    }
}
