import Foundation
package import TLSModel

/// A test log as a log list describes it: state, since when, temporal interval, tiled or RFC 6962.
package struct TestCTLogListing: Sendable {
    package var log: TestCTLog
    package var state: CTLogState
    /// The state's timestamp (whole seconds: the list's format has no fraction).
    package var stateSince: Date
    /// Certificates whose notAfter falls in `[start, end)` may be logged; nil: no `temporal_interval`.
    package var interval: CTLogInterval?
    /// Listed under `tiled_logs` (a static-ct-api log) rather than `logs`.
    package var tiled: Bool

    /// - Parameters:
    ///   - log: The test log.
    ///   - state: Its state (default usable).
    ///   - since: When it entered the state (default: a year ago).
    ///   - interval: Its temporal interval, if any.
    ///   - tiled: Whether it is a tiled (static-ct-api) log.
    package init(
        _ log: TestCTLog, state: CTLogState = .usable, since: Date = Date().addingTimeInterval(-365 * 86_400),
        interval: CTLogInterval? = nil, tiled: Bool = false
    ) {
        self.log = log
        self.state = state
        self.stateSince = since
        self.interval = interval
        self.tiled = tiled
    }
}

/// Log lists in Apple's JSON format (`log_list_schema_v5`), for the probe's `ctLogList`.
package enum TestCTLogList {
    /// The JSON of a list holding `listings`, grouped by operator in the order they first appear.
    /// - Parameter version: The list's `version`.
    package static func json(_ listings: [TestCTLogListing], version: String = "1.0") -> Data {
        var operators: [String] = []
        for listing in listings where !operators.contains(listing.log.operatorName) {
            operators.append(listing.log.operatorName)
        }
        let entries: [[String: Any]] = operators.map { name in
            let mine = listings.filter { $0.log.operatorName == name }
            return [
                "name": name, "email": ["ct@example.test"],
                "logs": mine.filter { !$0.tiled }.map(entry),
                "tiled_logs": mine.filter(\.tiled).map(entry),
            ]
        }
        let root: [String: Any] = ["version": version, "log_list_timestamp": stamp(Date()), "operators": entries]
        return (try? JSONSerialization.data(withJSONObject: root, options: [.sortedKeys])) ?? Data()
    }

    /// The list of `listings`, parsed as the probe reads Apple's list (`CTLogList.parse`).
    /// - Throws: ``CTLogListError`` if the JSON does not parse (a bug in this helper).
    package static func make(_ listings: [TestCTLogListing], source: String = "test log list") throws -> CTLogList {
        try CTLogList.parse(json(listings), source: source)
    }

    private static func entry(_ listing: TestCTLogListing) -> [String: Any] {
        var entry: [String: Any] = [
            "description": listing.log.description, "log_id": listing.log.idBase64,
            "key": listing.log.spki.base64EncodedString(), "mmd": 86_400,
            "state": [listing.state.rawValue: ["timestamp": stamp(listing.stateSince)]],
        ]
        entry[listing.tiled ? "submission_url" : "url"] = "https://ct.example.test/\(listing.log.idBase64.prefix(8))/"
        if let interval = listing.interval {
            entry["temporal_interval"] = [
                "start_inclusive": stamp(interval.start), "end_exclusive": stamp(interval.end),
            ]
        }
        return entry
    }

    private static func stamp(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.string(from: date)
    }
}
