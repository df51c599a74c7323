import TLSModel

extension Finding {
    /// Where a finding is and which rule it breaks, for the closing line on stderr: `FILE:LINE [rule]`, the key path
    /// when it has no file, else `[rule]` alone. The message (which can quote a whole plist entry) stays in the report.
    package var reference: String {
        let place = file.map { "\($0)\(line.map { ":\($0)" } ?? "")" } ?? keyPath
        return (place.map { "\($0) " } ?? "") + "[\(rule)]"
    }
}
