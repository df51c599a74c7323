import Foundation
import TLSModel

/// How `atscheck app`'s pin checks of bundled certificate files become findings (docs/pinning-rules.md §1, §4). The
/// mode and the sessions that pin are in code the bundle does not show: with the mode assumed a rejection is a warning
/// that names the modes; named with `--library`/`--mode`, it is an error, as in `atscheck audit`.
package enum AppPinFindings {
    /// The audit's findings for one evaluation (the rejection an error, the rest at most warnings), at `at`.
    package static func findings(_ check: AppPinCheck, at: SourceLocation, keyPath: String?, subject: String)
        -> [Finding]
    {
        let audit = AuditPinCheck(
            origin: .endpointList, endpoint: check.endpoint, library: check.library, pinFiles: check.pinFiles,
            source: at, keyPath: keyPath, result: check.result)
        return PinFindings.of(audit, subject: subject, expectFail: false)
    }

    /// One host's findings over the modes tried: a named mode's rejection is an error; assumed modes give one
    /// warning naming the modes that reject (only when some other host accepts, else the set-wide error says it).
    /// - Parameters:
    ///   - checks: The host's checks, one per mode tried.
    ///   - library: The library's name.
    ///   - anchor: Where the findings point (the first certificate file, else the framework).
    ///   - named: Whether `--library`/`--mode` named the mode.
    package static func host(_ checks: [AppPinCheck], library: String, anchor: String, named: Bool) -> [Finding] {
        guard let first = checks.first else { return [] }
        let at = SourceLocation(file: anchor)
        if named {
            return checks.flatMap {
                findings($0, at: at, keyPath: nil, subject: "\(library) in \($0.mode ?? "") mode with the bundled pins")
            }
        }
        let rejecting = checks.filter { $0.result.evaluation?.verdict == .reject }
        guard !rejecting.isEmpty else { return [] }
        let accepting = checks.filter { $0.result.evaluation?.verdict == .accept }.compactMap(\.mode)
        let why = rejecting.compactMap { check -> String? in
            guard let evaluation = check.result.evaluation else { return nil }
            return "\(check.mode ?? ""): \(evaluation.noMatchReason ?? evaluation.result)"
        }.joined(separator: "; ")
        let but = accepting.isEmpty ? "" : " (\(accepting.joined(separator: " and ")) mode accepts it)"
        return [
            Finding(
                rule: RuleID.Pins.rejected, severity: .warning,
                message:
                    "\(first.endpoint): if the app pins it with \(library), "
                    + "\(rejecting.compactMap(\.mode).joined(separator: " and ")) mode rejects it\(but): \(why)",
                file: at.file)
        ]
    }

    /// The set-wide finding when no host accepts the bundled pins in any mode tried (or there is nothing to pin).
    /// With the mode assumed this is a warning, not an error: the bundle does not show which sessions pin, and the
    /// pins may be meant for a host the harvest did not find (a false FAIL would teach teams to ignore the gate).
    /// Named with `--library`/`--mode`, or with no certificate to pin, it is reported whatever was named.
    /// - Parameters:
    ///   - checks: Every check of the set.
    ///   - library: The library's name.
    ///   - modes: The modes tried.
    ///   - files: The set's certificate files (names shown).
    ///   - note: Why the files are where they are, or that the lookup is not supported.
    ///   - empty: Whether the set has no certificate to pin.
    ///   - named: Whether `--library`/`--mode` named the mode.
    ///   - anchor: Where the finding points.
    /// - Returns: The finding, or nil when some host accepts (or nothing was evaluated).
    package static func setWide(
        _ checks: [AppPinCheck], library: String, modes: [String], files: [String], note: String?, empty: Bool,
        named: Bool, anchor: String
    ) -> Finding? {
        let evaluated = checks.filter { $0.result.evaluation != nil }
        guard !evaluated.isEmpty, !named || empty,
            !evaluated.contains(where: { $0.result.evaluation?.verdict == .accept })
        else { return nil }
        let hosts = Set(evaluated.map(\.endpoint)).count
        let what =
            empty
            ? "\(library) has no certificate to pin\(note.map { " (\($0))" } ?? "")"
            : "no host accepts the bundled pins (\(files.map(fileName).joined(separator: ", ")))"
        return Finding(
            rule: RuleID.Pins.rejected, severity: named ? .error : .warning,
            message:
                "\(what): \(library) in \(modes.joined(separator: " and ")) mode rejects all \(hosts) host(s) checked; "
                + "if the app pins with \(library), every pinned request fails",
            file: anchor)
    }

    static func fileName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }
}
