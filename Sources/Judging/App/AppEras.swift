import ATSPolicy
import Foundation
import TLSModel

/// Era arithmetic for `atscheck app`: the verdicts of one probe under each OS era of the build, said once
/// ("fails on iOS 12–12.2, passes on 13+") rather than once per era.
package enum AppEras {
    /// `15`, `15.4`, `26.4` (a `.0` dropped): ``AppleOSEra/label(_:)``.
    package static func label(_ os: AppleOSVersion) -> String { AppleOSEra.label(os) }

    /// The eras of `subset` as ranges of `all`: `iOS 12–12.2`, `iOS 13+` (a range reaching the newest era),
    /// `iOS 15, 17–18`.
    static func ranges(_ subset: [AppleOSVersion], of all: [AppleOSVersion]) -> String {
        let members = Set(subset)
        var runs: [String] = []
        var index = 0
        while index < all.count {
            guard members.contains(all[index]) else {
                index += 1
                continue
            }
            var end = index
            while end + 1 < all.count, members.contains(all[end + 1]) { end += 1 }
            if end == all.count - 1 {
                runs.append("\(label(all[index]))+")
            } else if end == index {
                runs.append(label(all[index]))
            } else {
                runs.append("\(label(all[index]))–\(label(all[end]))")
            }
            index = end + 1
        }
        return "iOS " + runs.joined(separator: ", ")
    }

    /// One endpoint's verdicts in words, in era order: `passes on iOS 15+`, `fails on iOS 12–12.2, passes on 13+`.
    package static func summary(_ verdicts: [(AppleOSVersion, ATSEvaluation.Verdict)], eras: [AppleOSVersion]) -> String
    {
        var groups: [(ATSEvaluation.Verdict, [AppleOSVersion])] = []
        for (os, verdict) in verdicts {
            if let at = groups.firstIndex(where: { $0.0 == verdict }) {
                groups[at].1.append(os)
            } else {
                groups.append((verdict, [os]))
            }
        }
        func word(_ verdict: ATSEvaluation.Verdict) -> String {
            switch verdict {
            case .pass: return "passes"
            case .fail: return "fails"
            case .ambiguous: return "is ambiguous"
            case .unknown: return "cannot be judged"
            }
        }
        return groups.enumerated().map { index, group in
            let range = ranges(group.1, of: eras)
            // "fails on iOS 12–12.2, passes on 13+": the platform is said once.
            return "\(word(group.0)) on \(index == 0 ? range : String(range.dropFirst(4)))"
        }.joined(separator: ", ")
    }

    /// Findings gathered per era, each kept once with the eras it appeared on; one that holds on some eras only
    /// says which (`— on iOS 12–12.2 only`). Order: first appearance.
    package static func merge(_ perEra: [(AppleOSVersion, [Finding])], eras: [AppleOSVersion]) -> [Finding] {
        struct Key: Hashable {
            var rule: RuleID
            var severity: Finding.Severity
            var file: String?
            var line: Int?
            var keyPath: String?
            var message: String
        }
        var order: [Key] = []
        var found: [Key: (Finding, [AppleOSVersion])] = [:]
        for (os, findings) in perEra {
            for finding in findings {
                let key = Key(
                    rule: finding.rule, severity: finding.severity, file: finding.file, line: finding.line,
                    keyPath: finding.keyPath, message: finding.message)
                if found[key] == nil {
                    order.append(key)
                    found[key] = (finding, [])
                }
                found[key]?.1.append(os)
            }
        }
        return order.compactMap { key in
            guard var (finding, on) = found[key] else { return nil }
            on = Array(Set(on)).sorted()
            if on.count < eras.count { finding.message += " — on \(ranges(on, of: eras)) only" }
            return finding
        }
    }

    /// Exception debt gathered per era, each item once with its eras.
    package static func merge(_ perEra: [(AppleOSVersion, [ExceptionDebt])]) -> [AppExceptionDebt] {
        var merged: [AppExceptionDebt] = []
        for (os, items) in perEra {
            for item in items {
                if let at = merged.firstIndex(where: { $0.debt == item }) {
                    merged[at].eras.append(label(os))
                } else {
                    merged.append(AppExceptionDebt(debt: item, eras: [label(os)]))
                }
            }
        }
        return merged
    }
}
