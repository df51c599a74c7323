import TLSModel

extension RuleID.Plist {
    /// `plist.key.duplicate`: A key written twice in one dictionary; only the last value takes effect.
    package static let keyDuplicate: RuleID = "plist.key.duplicate"
}

/// `plist.key.duplicate`: a `<key>` written twice in one XML `<dict>`. `PropertyListSerialization` (like Apple's
/// CFPropertyList) keeps only the last value, silently, so the first one a reader sees is not the one that takes
/// effect.
///
/// One finding per duplicated key (one problem, one alert), at the first occurrence that is ignored, naming the line
/// that takes effect and, for a dictionary, the keys only the ignored value had (what is lost). Its weight follows
/// what ATS reads: inside `NSAppTransportSecurity` (a duplicated `NSAppTransportSecurity` key itself hides a whole
/// dictionary) and TrustKit's `TSKConfiguration` (pins atscheck reads), an error when the values differ and a note
/// when they are written alike; elsewhere (an alternate icon under `CFBundleIcons~ipad`, a `UIDesign…` key), keys
/// ATS never reads, a note when they differ and nothing when they do not.
struct DuplicateKeyRules: PlistLintRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyDuplicate, .plist, .error,
                title: "A key written twice in one dictionary; only the last value takes effect.",
                help: """
                    Property-list readers keep one value per key: Foundation keeps the last one written and drops the \
                    other without a word, so the dictionary Apple reads is not the one the first value suggests. \
                    atscheck reports it once, at the occurrence that is ignored, naming the line that takes effect and \
                    what the ignored value held that is lost. An error inside `NSAppTransportSecurity` (and TrustKit's \
                    `TSKConfiguration`) when the values differ, a note when they are written alike; outside them, keys \
                    ATS never reads, a note when the values differ and nothing otherwise. Delete all but the value you \
                    mean.
                    """)
        ]
    }

    var needsATSDictionary: Bool { false }

    /// Adds the duplicate keys of the whole file (they are lost before the dictionary is read).
    func check(_ c: LintContext) { c.add(Self.findings(in: c.document)) }

    /// The configurations atscheck reads from a plist besides `NSAppTransportSecurity`.
    static let pinningRoots: Set<String> = ["TSKConfiguration"]

    /// One finding per duplicated key that matters.
    static func findings(in document: PlistDocument) -> [Finding] {
        var findings: [Finding] = []
        for (path, lines, values) in document.duplicateKeys {
            guard let key = path.last, lines.count >= 2 else { continue }
            let components = document.kind == .atsDictionary ? [ATSKey.appTransportSecurity] + path : path
            let aboutATS =
                document.kind == .atsDictionary || path.first == ATSKey.appTransportSecurity
                || pinningRoots.contains(path.first ?? "")
            let alike = values.count == lines.count && Set(values).count == 1
            if !aboutATS && alike { continue }
            let severity: Finding.Severity = aboutATS && !alike ? .error : .note
            let winner = lines[lines.count - 1]
            let ignored = lines.dropLast().map(String.init)
            let times = lines.count == 2 ? "twice" : "\(lines.count) times"
            var message = "\(key) is written \(times) in the same dictionary: "
            if Set(lines).count == 1 {
                message += "all on line \(winner), and only the last value takes effect"
            } else {
                message +=
                    "the value at line" + (ignored.count == 1 ? " \(ignored[0]) is" : "s \(listed(ignored)) are")
                    + " ignored and the one at line \(winner) takes effect"
            }
            if alike {
                message += " (the values are written alike, so nothing is lost; delete the repeat)"
            } else if let lost = lostKeys(document, path: path), !lost.isEmpty {
                message += "; lost with the ignored value: \(listed(lost))"
            }
            if !aboutATS { message += "; ATS does not read this key" }
            var finding = Finding(
                rule: RuleID.Plist.keyDuplicate, severity: severity, message: message, file: document.file,
                line: lines[0], keyPath: components.joined(separator: "."))
            finding.keyPathComponents = components
            findings.append(finding)
        }
        return findings
    }

    /// The keys an ignored dictionary value held that the winning one lacks (as the line index saw them): what the
    /// duplicate loses. nil when the value is not a dictionary.
    private static func lostKeys(_ document: PlistDocument, path: [String]) -> [String]? {
        guard let winning = document.value(at: path).flatMap(PlistNode.dictionary) else { return nil }
        let earlier = document.duplicateChildren(of: path).dropLast().flatMap { $0 }
        return Set(earlier.filter { winning[$0] == nil }).sorted()
    }

    /// `10, 12 and 13`.
    static func listed(_ items: [String]) -> String {
        items.count <= 1 ? items.joined() : items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}
