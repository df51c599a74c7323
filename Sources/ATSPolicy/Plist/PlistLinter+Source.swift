import TLSModel

extension PlistLinter {
    /// Lints an Info.plist read as Xcode builds it: every configuration its preprocessor conditions allow, merged.
    ///
    /// A finding that holds in every configuration is reported once, as it is; one that holds in some only says
    /// which (``Finding/configuration``, and the message ends with `(only with DEBUG defined)`). Line numbers are the
    /// source file's in every configuration, so the same problem on the same line is one finding.
    /// - Parameters:
    ///   - source: The file's configurations.
    ///   - options: The OS releases to judge for, and the build settings given.
    /// - Returns: The reading findings and every configuration's findings, ordered by line.
    public static func lint(_ source: PlistSource, options: Options = Options()) -> [Finding] {
        guard source.hasConfigurations else {
            return (source.findings + lint(source.document, options: options)).sorted(by: order)
        }
        let merged = mergingConfigurations(
            source.configurations.map { lint($0, options: options) },
            labels: source.configurations.map { $0.configuration ?? "" })
        return (source.findings + merged).sorted(by: order)
    }

    /// The findings of several build configurations as one list: a finding that holds in every configuration once, as
    /// it is; one that holds in some only with ``Finding/configuration`` naming them and the message ending
    /// `(only with …)`. In the order first seen.
    /// - Parameters:
    ///   - lists: each configuration's findings.
    ///   - labels: each configuration's name.
    public static func mergingConfigurations(_ lists: [[Finding]], labels: [String]) -> [Finding] {
        var unique: [Finding] = []
        var holdsIn: [Finding: [Int]] = [:]
        for (index, findings) in lists.enumerated() {
            for finding in findings {
                if holdsIn[finding] == nil { unique.append(finding) }
                if holdsIn[finding]?.last != index { holdsIn[finding, default: []].append(index) }
            }
        }
        return unique.map { finding in
            let indices = holdsIn[finding] ?? []
            guard indices.count < lists.count else { return finding }
            var scoped = finding
            scoped.configuration = indices.map { labels[$0] }.joined(separator: " or ")
            scoped.message += " (only with \(scoped.configuration!))"
            return scoped
        }
    }
}
