import TLSModel

/// How the HTML report marks a verdict or a severity: a colour class always with a symbol and a word, so that the
/// page reads the same without colour (a colour-blind reader, a black-and-white print).
struct HTMLMark: Equatable {
    /// One character: ✓, ✗, !, ?, –, i.
    let symbol: String
    /// The word beside it, upper case: PASS, FAIL, ….
    let word: String
    /// The CSS class that colours it (`s-pass`, `s-fail`, `s-warn`, `s-unknown`, `s-none`, `s-note`).
    let cssClass: String
    /// What it means, for the legend.
    let meaning: String

    static let pass = HTMLMark(symbol: "✓", word: "PASS", cssClass: "s-pass", meaning: "ATS allows the connection")
    static let fail = HTMLMark(
        symbol: "✗", word: "FAIL", cssClass: "s-fail", meaning: "ATS blocks the connection: the app cannot load it")
    static let ambiguous = HTMLMark(
        symbol: "!", word: "AMBIGUOUS", cssClass: "s-warn",
        meaning: "Apple's documentation and its code disagree; one reading fails")
    static let unknown = HTMLMark(
        symbol: "?", word: "UNKNOWN", cssClass: "s-unknown", meaning: "a probe the verdict needs did not answer")
    static let notScanned = HTMLMark(
        symbol: "–", word: "NOT SCANNED", cssClass: "s-none", meaning: "the server could not be reached or scanned")

    static let error = HTMLMark(symbol: "✗", word: "ERROR", cssClass: "s-fail", meaning: "")
    static let warning = HTMLMark(symbol: "!", word: "WARNING", cssClass: "s-warn", meaning: "")
    static let note = HTMLMark(symbol: "i", word: "NOTE", cssClass: "s-note", meaning: "")

    static let accept = HTMLMark(symbol: "✓", word: "ACCEPT", cssClass: "s-pass", meaning: "")
    static let reject = HTMLMark(symbol: "✗", word: "REJECT", cssClass: "s-fail", meaning: "")
    static let notChecked = HTMLMark(symbol: "–", word: "NOT CHECKED", cssClass: "s-none", meaning: "")

    /// The marks of the matrix, in the legend's order.
    static let matrixLegend: [HTMLMark] = [.pass, .fail, .ambiguous, .unknown, .notScanned]

    /// The mark of an ATS verdict.
    init(_ verdict: ATSEvaluation.Verdict) {
        switch verdict {
        case .pass: self = .pass
        case .fail: self = .fail
        case .ambiguous: self = .ambiguous
        case .unknown: self = .unknown
        }
    }

    /// The mark of a finding's severity.
    init(_ severity: Finding.Severity) {
        switch severity {
        case .error: self = .error
        case .warning: self = .warning
        case .note: self = .note
        }
    }

    /// The mark of a pin verdict; nil: not checked.
    init(_ verdict: PinVerdict?) {
        switch verdict {
        case .accept?: self = .accept
        case .reject?: self = .reject
        case nil: self = .notChecked
        }
    }

    private init(symbol: String, word: String, cssClass: String, meaning: String) {
        self.symbol = symbol
        self.word = word
        self.cssClass = cssClass
        self.meaning = meaning
    }

    /// Whether the mark stands for a failure (the matrix's rows that get a failure entry).
    var isFailure: Bool { self == .fail || self == .ambiguous }

    /// The symbol and the word (the symbol hidden from screen readers, which read the word).
    var html: String { "<span class=\"sym\" aria-hidden=\"true\">\(symbol)</span> \(word)" }

    /// The symbol and the word as a coloured chip.
    var chip: String { "<span class=\"chip \(cssClass)\">\(html)</span>" }

    /// How bad, for the worst mark of a row: fail, ambiguous, not scanned, unknown, pass.
    var rank: Int {
        switch cssClass {
        case "s-fail": return 4
        case "s-warn": return 3
        case "s-none": return 2
        case "s-unknown": return 1
        default: return 0
        }
    }
}
