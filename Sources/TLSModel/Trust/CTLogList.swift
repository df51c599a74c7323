import Foundation

/// A Certificate Transparency log list in Apple's format (`log_list_schema_v5`, the
/// `certificate_transparency/log_list.json` of security_certificates; support 103703 links Apple's copy).
public struct CTLogList: Codable, Sendable, Hashable {
    /// The list's own `version`.
    public var version: String
    /// Where it came from: `Apple's log list v375 (security_certificates-55349.0.11)` or a file path.
    public var source: String
    public var logs: [CTLog]
    /// When the list was published: its `log_list_timestamp` when it has one; for Apple's bundled copy, which has
    /// none, the date of the security_certificates tag it came from; otherwise the newest state change it records
    /// (the list is at least that new). An SCT from a log the list lacks, timestamped after this, may come from a log
    /// Apple added since (support 103703: the device's list updates over the air).
    public var date: Date?

    public init(version: String, source: String, logs: [CTLog], date: Date? = nil) {
        self.version = version
        self.source = source
        self.logs = logs
        self.date = date
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(source)
        hasher.combine(logs.count)
    }

    /// The newest state change the list records, a lower bound on its date.
    public var newestStateChange: Date? { logs.compactMap(\.stateSince).max() }

    /// The log with this ID (base64 of the SHA-256 of its key).
    public func log(id: String) -> CTLog? { logs.first { $0.id == id } }

    /// Reads a list in Apple's JSON format.
    /// - Throws: ``CTLogListError`` naming the first thing that is not as the schema says.
    public static func parse(_ data: Data, source: String) throws -> CTLogList {
        let object: Any
        do { object = try JSONSerialization.jsonObject(with: data) } catch {
            throw CTLogListError("\(source): not JSON\(JSONErrorPosition.describe(error, in: data))")
        }
        guard let root = object as? [String: Any] else { throw CTLogListError("\(source): not a JSON object") }
        guard let operators = root["operators"] as? [[String: Any]] else {
            throw CTLogListError("\(source): no 'operators' array")
        }
        let version = (root["version"] as? String) ?? (root["version"] as? Int).map(String.init) ?? "?"
        var logs: [CTLog] = []
        for (operatorIndex, entry) in operators.enumerated() {
            guard let name = entry["name"] as? String else {
                throw CTLogListError("\(source): operator \(operatorIndex) has no name")
            }
            let classic = (entry["logs"] as? [[String: Any]]) ?? []
            let tiled = (entry["tiled_logs"] as? [[String: Any]]) ?? []
            for (log, isTiled) in classic.map({ ($0, false) }) + tiled.map({ ($0, true) }) {
                logs.append(try CTLog(json: log, operator: name, tiled: isTiled, source: source))
            }
        }
        var list = CTLogList(version: version, source: "\(source) (version \(version))", logs: logs)
        if let stamp = root["log_list_timestamp"] {
            guard let text = stamp as? String, let date = CTLogList.date(text) else {
                throw CTLogListError("\(source): 'log_list_timestamp' is not a date like 2026-11-27T00:00:00Z")
            }
            list.date = date
        } else {
            list.date = list.newestStateChange
        }
        return list
    }
}

public struct CTLogListError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}

/// One log of the list.
public struct CTLog: Codable, Sendable, Hashable {
    /// Base64 of the SHA-256 of the log's key (the SCT's LogID).
    public var id: String
    /// The log's public key, DER SubjectPublicKeyInfo.
    public var key: Data
    public var description: String
    public var `operator`: String
    public var state: CTLogState
    /// When the log entered its state.
    public var stateSince: Date?
    /// Certificates whose notAfter falls in [start, end) may be logged here; nil when the log takes any.
    public var interval: CTLogInterval?
    /// A static-ct-api (tiled) log rather than an RFC 6962 log.
    public var tiled: Bool

    public init(
        id: String, key: Data, description: String, operator: String, state: CTLogState, stateSince: Date? = nil,
        interval: CTLogInterval? = nil, tiled: Bool = false
    ) {
        self.id = id
        self.key = key
        self.description = description
        self.operator = `operator`
        self.state = state
        self.stateSince = stateSince
        self.interval = interval
        self.tiled = tiled
    }

    init(json: [String: Any], operator name: String, tiled: Bool, source: String) throws {
        let description = (json["description"] as? String) ?? "unnamed log"
        guard let key = (json["key"] as? String).flatMap({ Data(base64Encoded: $0) }),
            let id = json["log_id"] as? String, Data(base64Encoded: id)?.count == 32
        else { throw CTLogListError("\(source): log '\(description)' of \(name) has no valid key or log_id") }
        guard let states = json["state"] as? [String: Any], let (stateName, detail) = states.first,
            let state = CTLogState(rawValue: stateName)
        else { throw CTLogListError("\(source): log '\(description)' of \(name) has no known state") }
        var interval: CTLogInterval?
        if let window = json["temporal_interval"] as? [String: Any] {
            guard let start = (window["start_inclusive"] as? String).flatMap(CTLogList.date),
                let end = (window["end_exclusive"] as? String).flatMap(CTLogList.date)
            else { throw CTLogListError("\(source): log '\(description)' has a malformed temporal_interval") }
            interval = CTLogInterval(start: start, end: end)
        }
        self.init(
            id: id, key: key, description: description, operator: name, state: state,
            stateSince: ((detail as? [String: Any])?["timestamp"] as? String).flatMap(CTLogList.date),
            interval: interval, tiled: tiled)
    }
}

/// A log's state in Apple's list. trustd's converter (`BuildTrustedCTLogsPlist.py`) drops pending and
/// rejected logs, keeps usable and qualified logs as current, and dates readonly (frozen) and retired logs.
public enum CTLogState: String, Codable, Sendable {
    case pending, qualified, usable, readonly, retired, rejected
}

/// `[start, end)` on the certificate's notAfter.
public struct CTLogInterval: Codable, Sendable, Hashable {
    public var start: Date
    public var end: Date
    public init(start: Date, end: Date) {
        self.start = start
        self.end = end
    }
    public func contains(_ date: Date) -> Bool { date >= start && date < end }
}

extension CTLogList {
    /// `2025-06-13T02:40:00Z` (the list's only form), parsed by arithmetic: a date formatter per date was a tenth
    /// of a scan's start-up.
    static func date(_ text: String) -> Date? {
        let fields = text.utf8.split(whereSeparator: { !(48...57).contains($0) })
        guard text.hasSuffix("Z"), fields.count == 6 else { return nil }
        let n = fields.map { Int(String(decoding: $0, as: UTF8.self)) ?? -1 }
        let (year, month, day, hour, minute, second) = (n[0], n[1], n[2], n[3], n[4], n[5])
        guard (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute),
            (0...60).contains(second), year >= 1970
        else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = y / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
