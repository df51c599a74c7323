import ATSPolicy
import Foundation
import TLSModel
import Yams

/// Accepted findings: a CI gate fails only on what is outside the baseline (`atscheck audit --baseline FILE`).
///
/// ```yaml
/// waivers:
///   - rule: audit.exception.missing        # a rule id; a trailing * matches a family (audit.exception.*)
///     target: legacy-api.example.com:443   # an endpoint (host or host:port) …
///     reason: vendor moves to TLS 1.2 in Q3 (TICKET-123)
///     expires: 2026-09-30                  # the last day the waiver counts
///   - rule: plist.review.justification
///     keyPath: NSAppTransportSecurity.NSExceptionDomains.legacy-api.example.com   # … or a plist key path
///     reason: justification filed with App Review
///     expires: 2026-12-31
/// ```
///
/// A waiver without a rule, a target or key path, a reason, or a valid expiry is itself an error
/// (`baseline.invalid`) and suppresses nothing; an expired one suppresses nothing and is an error
/// (`baseline.expired`); one that matched nothing is a note (`baseline.unused`).
public struct Baseline: Sendable, Equatable {
    public var file: String
    public var waivers: [Waiver]

    public init(file: String, waivers: [Waiver]) {
        self.file = file
        self.waivers = waivers
    }

    /// One accepted finding.
    public struct Waiver: Sendable, Equatable {
        /// A rule id (`audit.exception.missing`, `ats.tls.forward-secrecy`), or a prefix ending in `*`.
        public var rule: String?
        /// An endpoint: `host` (any port) or `host:port`; also matches findings on that host's exception entry.
        public var target: String?
        /// A dotted plist key path; matches the key and everything under it.
        public var keyPath: String?
        public var reason: String?
        /// The expiry as written (`YYYY-MM-DD`, the last day the waiver counts).
        public var expires: String?
        public var source: SourceLocation

        public init(
            rule: String?, target: String? = nil, keyPath: String? = nil, reason: String?, expires: String?,
            source: SourceLocation
        ) {
            self.rule = rule
            self.target = target
            self.keyPath = keyPath
            self.reason = reason
            self.expires = expires
            self.source = source
        }

        /// The first instant the waiver no longer counts (midnight UTC after the expiry day), nil when invalid.
        public var expiryInstant: Date? {
            guard let expires, let day = CalendarDay.date(from: expires)
            else { return nil }
            return day.addingTimeInterval(86_400)
        }

        /// What is wrong with the waiver, nil when it is usable.
        public var problem: String? {
            var missing: [String] = []
            if (rule ?? "").isEmpty { missing.append("a rule") }
            if (target ?? "").isEmpty && (keyPath ?? "").isEmpty { missing.append("a target or keyPath") }
            if (reason ?? "").trimmingCharacters(in: .whitespaces).isEmpty { missing.append("a reason") }
            if (expires ?? "").isEmpty { missing.append("an expiry date (expires: YYYY-MM-DD)") }
            if !missing.isEmpty { return "the waiver has no " + missing.joined(separator: ", no ") }
            if expiryInstant == nil { return "expires '\(expires!)' is not a date written YYYY-MM-DD" }
            return nil
        }

    }

    /// Reads a baseline (YAML, or JSON for `.json` files).
    /// - Throws: ``InputFileError`` when the file is unreadable, larger than ``InputLimits/baselineBytes``, or malformed.
    public static func load(path: String) throws -> Baseline {
        try parse(text: StructuredFile.readText(path: path, limit: InputLimits.baselineBytes), file: path)
    }

    /// Parses a baseline: `waivers:` followed by a list of mappings (an empty file is an empty baseline).
    /// - Throws: ``InputFileError`` when the text is malformed or not shaped like a baseline.
    public static func parse(text: String, file: String) throws -> Baseline {
        let format = StructuredFile.format(ofPath: file)
            ?? (text.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("{") ? .json : .yaml)
        guard let root = try StructuredFile.parse(text, format: format, file: file) else {
            return Baseline(file: file, waivers: [])
        }
        guard let mapping = root.mapping else {
            throw InputFileError(file: file, line: root.line, reason: "the top level is \(root.kindName); expected 'waivers:' followed by a list")
        }
        guard let list = mapping["waivers"] else {
            throw InputFileError(file: file, line: root.line, reason: "no 'waivers' key; expected 'waivers:' followed by a list")
        }
        if list.scalar?.string.isEmpty == true || list.scalar?.string == "null" || list.scalar?.string == "~" {
            return Baseline(file: file, waivers: [])
        }
        guard let items = list.sequence else {
            throw InputFileError(file: file, line: list.line, reason: "'waivers' is \(list.kindName), not a list")
        }
        var waivers: [Waiver] = []
        for item in items {
            guard let fields = item.mapping else {
                throw InputFileError(file: file, line: item.line, reason: "a waiver is \(item.kindName); expected a mapping with rule, target or keyPath, reason, expires")
            }
            func value(_ key: String) -> String? { fields[key]?.scalarText }
            waivers.append(
                Waiver(
                    rule: value("rule"), target: value("target"), keyPath: value("keyPath"), reason: value("reason"),
                    expires: value("expires"), source: SourceLocation(file: file, line: item.line)))
        }
        return Baseline(file: file, waivers: waivers)
    }
}
