/// Runs of printable ASCII in bytes (like `strings`), with where each starts: the byte offset, and the line
/// when the bytes are text. Runs are handed on as ranges of the caller's bytes, never copied.
enum PrintableRuns {
    /// One run: its bytes' range in the buffer scanned, and the line it starts on.
    struct Run {
        var range: Range<Int>
        var line: Int
    }

    /// The shortest run worth keeping: `a.io` is 4 characters.
    static let minimumLength = 4

    /// Runs inside a range of the bytes that contain a dot (no URL or host name lacks one); a run ends at any
    /// byte outside 0x20–0x7E (NUL, newline, UTF-8).
    static func runs(in bytes: UnsafeRawBufferPointer, range: Range<Int>, _ body: (Run) -> Void) {
        var start: Int?
        var line = 1
        var startLine = 1
        var hasDot = false
        var index = range.lowerBound
        while index < range.upperBound {
            let byte = bytes[index]
            if byte >= 0x20 && byte <= 0x7E {
                if byte == 0x2E { hasDot = true }
                if start == nil {
                    start = index
                    startLine = line
                }
            } else {
                if let s = start, hasDot, index - s >= minimumLength { body(Run(range: s..<index, line: startLine)) }
                start = nil
                hasDot = false
                if byte == 0x0A { line += 1 }
            }
            index += 1
        }
        if let s = start, hasDot, range.upperBound - s >= minimumLength {
            body(Run(range: s..<range.upperBound, line: startLine))
        }
    }
}
