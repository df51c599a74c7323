import Foundation
import TLSModel

/// A ``RuleID/Trust/dataStale`` warning, once per run, when the CT log list the endpoints were judged with was
/// published more than ``maximumAgeDays`` days before the judging time.
///
/// Apple's devices refresh their list over the air (support 103703), so an old copy does not know the logs Apple added
/// since: an SCT from such a log makes an endpoint ambiguous, never failed (``CertificateTransparencyReport``), and
/// this warning says why and how to update.
package enum StaleDataWarnings {
    /// How old the data may be before the run warns.
    package static let maximumAgeDays = 90

    /// One warning per log list older than ``maximumAgeDays`` at `now` among the lists `endpoints` were judged with,
    /// located at the first endpoint judged with it (a chain file, an endpoint list's line), where it has a place.
    package static func findings(for endpoints: [EndpointResult], now: Date) -> [Finding] {
        var lists: [(source: String, date: Date, at: SourceLocation?)] = []
        for endpoint in endpoints {
            guard let report = endpoint.profile.certificate?.transparency, let date = report.logListDate,
                !lists.contains(where: { $0.source == report.logList })
            else { continue }
            lists.append((report.logList, date, endpoint.source))
        }
        return lists.compactMap { list in
            let days = Int(now.timeIntervalSince(list.date) / 86_400)
            guard days > maximumAgeDays else { return nil }
            return Finding(
                rule: RuleID.Trust.dataStale, severity: .warning,
                message:
                    "the CT log list judged with (\(list.source)) was published \(CalendarDay.string(from: list.date)), "
                    + "\(days) days before \(CalendarDay.string(from: now)); Apple's devices update theirs over the air, "
                    + "so logs added since are unknown to it: run `atscheck data update` or pass --ct-log-list",
                file: list.at?.file, line: list.at?.line)
        }
    }
}
