import Foundation
import TLSModel

extension RuleID.Plist {
    /// `plist.domain.invalid`: An exception or pinned domain key that is not a host name.
    package static let domainInvalid: RuleID = "plist.domain.invalid"
}

/// A domain key that is not a host name: empty or with white space (the rules read no further), or with characters
/// a host name cannot have once its spelling problems are set aside. Reads the key as ``DomainEntry`` left it (docs/apple-rules.md §4.4).
struct DomainInvalidRule: PlistLintRule {
    /// The rule's catalogue entry.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainInvalid, .plist, .error,
                title: "An exception or pinned domain key that is not a host name.",
                help: """
                    `NSExceptionDomains` and `NSPinnedDomains` keys are bare host names (from iOS 17 also IP addresses \
                    and CIDR ranges); a key with spaces or other characters a host name cannot have never matches a \
                    request. Write the host name alone.
                    """,
                appleKey: "NSExceptionDomains")
        ]
    }

    func check(_ c: LintContext) {
        for d in c.domainEntries {
            if d.stop == .whiteSpace {
                c.emit(
                    RuleID.Plist.domainInvalid, .error,
                    "\(d.what) key \"\(d.name)\" is empty or contains white space: it never matches a host", at: d.path)
                continue
            }
            guard d.isHostName else { continue }
            let allowed = CharacterSet(
                charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.-_")
            let host = d.host
            if host.isEmpty || host.unicodeScalars.contains(where: { !allowed.contains($0) }) || host.contains("..") {
                c.emit(
                    RuleID.Plist.domainInvalid, .error,
                    "\(d.what) key \(d.name) is not a valid host name: it never matches (internationalised names must "
                        + "be written in punycode, xn--…)",
                    at: d.path)
            }
        }
    }
}
