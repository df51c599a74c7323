import TLSModel

/// `plist.key.duplicate`: a `<key>` written twice in one XML `<dict>`. `PropertyListSerialization` (like
/// Apple's CFPropertyList) keeps only the last value, silently, so the first one a reader sees is not the one
/// that takes effect. Reported at every line the key is on, in the whole file (not only under
/// `NSAppTransportSecurity`: a duplicated `NSAppTransportSecurity` key itself hides a whole dictionary).
enum DuplicateKeyRules {
    /// One error finding per occurrence of each duplicated key.
    static func findings(in document: PlistDocument) -> [Finding] {
        var findings: [Finding] = []
        for (path, lines) in document.duplicateKeys {
            guard let key = path.last else { continue }
            let keyPath = (document.kind == .atsDictionary ? [ATSKey.appTransportSecurity] + path : path).joined(
                separator: ".")
            let all = lines.map(String.init)
            let listed =
                all.count == 2
                ? "\(all[0]) and \(all[1])" : all.dropLast().joined(separator: ", ") + " and " + all.last!
            let count = lines.count == 2 ? "twice" : "\(lines.count) times"
            let which = lines.count == 2 ? "second" : "last"
            for (index, line) in lines.enumerated() {
                let role = index == lines.count - 1 ? "this value takes effect" : "this value is ignored"
                findings.append(
                    Finding(
                        rule: RuleID.Plist.keyDuplicate, severity: .error,
                        message:
                            "\(key) is written \(count) in the same dictionary (lines \(listed)); only the \(which) "
                            + "value takes effect (\(role))",
                        file: document.file, line: line, keyPath: keyPath))
            }
        }
        return findings
    }
}
