import Foundation
import TLSModel

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
package struct Baseline: Sendable, Equatable {
    package var file: String
    package var waivers: [Waiver]

    package init(file: String, waivers: [Waiver]) {
        self.file = file
        self.waivers = waivers
    }

    /// One accepted finding.
    package struct Waiver: Sendable, Equatable {
        /// A rule id (`audit.exception.missing`, `ats.tls.forward-secrecy`), or a prefix ending in `*`.
        package var rule: String?
        /// An endpoint: `host` (any port) or `host:port`; also matches findings on that host's exception entry.
        package var target: String?
        /// A dotted plist key path; matches the key and everything under it.
        package var keyPath: String?
        package var reason: String?
        /// The expiry as written (`YYYY-MM-DD`, the last day the waiver counts).
        package var expires: String?
        package var source: SourceLocation

        package init(
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
        package var expiryInstant: Date? {
            guard let expires, let day = CalendarDay.date(from: expires)
            else { return nil }
            return day.addingTimeInterval(86_400)
        }

        /// What is wrong with the waiver, nil when it is usable.
        package var problem: String? {
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
}
