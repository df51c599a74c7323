import TLSModel

extension RuleID.Plist {
    /// `plist.key.wrong-level`: An ATS key placed in the wrong dictionary, where Apple does not read it.
    package static let keyWrongLevel: RuleID = "plist.key.wrong-level"
}

/// An ATS key at the Info.plist root (as far as reading the root goes), or in a scanned dictionary of a level it
/// does not belong to. Reads the names ``KeyNameScan`` found.
struct KeyWrongLevelRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.keyWrongLevel, .plist, .error,
                title: "An ATS key placed in the wrong dictionary, where Apple does not read it.",
                help: """
                    Global keys (`NSAllowsArbitraryLoads`, …) belong directly in `NSAppTransportSecurity`, per-domain \
                    keys (`NSIncludesSubdomains`, `NSExceptionMinimumTLSVersion`, …) inside an `NSExceptionDomains` \
                    entry, pinning keys inside an `NSPinnedDomains` entry. Elsewhere Apple does not read them. Move \
                    the key to the level the message names.
                    """)
        ]
    }

    var needsATSDictionary: Bool { false }

    func check(_ c: LintContext) {
        for key in c.keyNames.rootKeys {
            guard let known = ATSKey.named(key) else { continue }
            c.emit(
                RuleID.Plist.keyWrongLevel, .error,
                "\(known.name) is at the top level of the Info.plist, where Apple does not read it; move it "
                    + "inside NSAppTransportSecurity",
                filePath: [key], keyPath: key)
        }
        for scanned in c.keyNames.dictionaries {
            guard let level = scanned.level else { continue }
            for key in scanned.keys {
                guard let known = ATSKey.named(key), !known.levels.contains(level) else { continue }
                c.emit(
                    RuleID.Plist.keyWrongLevel, .error,
                    "\(key) does not belong \(KeyNameScan.describe(level)); Apple reads it only "
                        + "\(known.levels.map(KeyNameScan.describe).sorted().joined(separator: " or ")), so here it is "
                        + "ignored",
                    at: scanned.path + [key])
            }
        }
    }
}
