import Foundation
import TLSModel

extension RuleID.Plist {
    /// `plist.pinning.no-identities` (its entry is below).
    package static let pinningNoIdentities: RuleID = "plist.pinning.no-identities"
    /// `plist.pinning.empty-identities`: An empty pinned identity array.
    package static let pinningEmptyIdentities: RuleID = "plist.pinning.empty-identities"
    /// `plist.pinning.missing-spki`: A pinned identity without an SPKI-SHA256-BASE64 string.
    package static let pinningMissingSPKI: RuleID = "plist.pinning.missing-spki"
    /// `plist.pinning.invalid-base64`: An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it.
    package static let pinningInvalidBase64: RuleID = "plist.pinning.invalid-base64"
    /// `plist.pinning.wrong-digest-length` (its entry is below).
    package static let pinningWrongDigestLength: RuleID = "plist.pinning.wrong-digest-length"
    /// `plist.pinning.no-backup`: A pinned domain with a single pin and no backup pin.
    package static let pinningNoBackup: RuleID = "plist.pinning.no-backup"
    /// `plist.pinning.placeholder` (its entry is below).
    package static let pinningPlaceholder: RuleID = "plist.pinning.placeholder"
}

/// `NSPinnedDomains` structure (docs/apple-rules.md §3.3): each entry needs `NSPinnedCAIdentities` and/or
/// `NSPinnedLeafIdentities`, each an array of dictionaries holding an `SPKI-SHA256-BASE64` string:
/// the Base64 of a SHA-256 digest, so exactly 32 bytes. Apple skips malformed Base64 entries.
struct PinnedDomainRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.pinningNoIdentities, .plist, .error,
                title: "An NSPinnedDomains entry with neither NSPinnedCAIdentities nor NSPinnedLeafIdentities.",
                help: """
                    A pinned domain entry pins nothing without at least one identity array. Add \
                    `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` with `SPKI-SHA256-BASE64` pins, or remove the \
                    entry.
                    """,
                appleKey: "NSPinnedDomains"),
            RuleDescriptor(
                RuleID.Plist.pinningEmptyIdentities, .plist, .warning, title: "An empty pinned identity array.",
                help: """
                    An empty `NSPinnedCAIdentities` or `NSPinnedLeafIdentities` array adds no pin. Add the pins, or \
                    remove the array.
                    """,
                appleKey: "NSPinnedDomains"),
            RuleDescriptor(
                RuleID.Plist.pinningMissingSPKI, .plist, .error,
                title: "A pinned identity without an SPKI-SHA256-BASE64 string.",
                help: """
                    Each pinned identity is a dictionary with an `SPKI-SHA256-BASE64` string: the Base64 SHA-256 of \
                    the certificate's DER SubjectPublicKeyInfo. Add it.
                    """,
                appleKey: "SPKI-SHA256-BASE64"),
            RuleDescriptor(
                RuleID.Plist.pinningInvalidBase64, .plist, .error,
                title: "An SPKI-SHA256-BASE64 value that is not Base64; Apple skips it.",
                help: """
                    Apple skips malformed pins, so the entry may pin less than intended, or nothing. Replace the value \
                    with the Base64 SHA-256 of the SubjectPublicKeyInfo.
                    """,
                appleKey: "SPKI-SHA256-BASE64"),
            RuleDescriptor(
                RuleID.Plist.pinningWrongDigestLength, .plist, .error,
                title: "An SPKI-SHA256-BASE64 value that does not decode to a 32-byte SHA-256 digest.",
                help: """
                    The pin decodes, but not to 32 bytes, so it can never equal a SHA-256 digest (often a SHA-1 pin, \
                    or the key itself instead of its hash). Use the SHA-256 of the DER SubjectPublicKeyInfo.
                    """,
                appleKey: "SPKI-SHA256-BASE64"),
            RuleDescriptor(
                RuleID.Plist.pinningNoBackup, .plist, .warning,
                title: "A pinned domain with a single pin and no backup pin.",
                help: """
                    With one pin, a key rotation or a CA change breaks the app until an update ships. Add a backup \
                    pin: a key kept offline, or a second CA's key.
                    """,
                appleKey: "NSPinnedDomains"),
            RuleDescriptor(
                RuleID.Plist.pinningPlaceholder, .plist, .note,
                title: "A pin that is a placeholder (one repeated character, such as AAAA…=); it never matches a key.",
                help: """
                    A SHA-256 digest is never one byte repeated, so a pin such as `AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA=` \
                    matches no certificate. Such pins are written to pass a library's rule that a backup pin must exist \
                    (TrustKit requires two), which leaves the app with no real backup. A note while another pin of the \
                    domain is real; an error when every pin of the domain is a placeholder (no connection can succeed). \
                    Pin a real backup key.
                    """,
                appleKey: "SPKI-SHA256-BASE64"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        for (name, value) in c.pinnedDomains {
            guard let entry = PlistNode.dictionary(value), ATSKey.named(name) == nil else { continue }
            let path = [ATSKey.pinnedDomains.name, name]
            let arrays = [ATSKey.pinnedCAIdentities, .pinnedLeafIdentities]
            let present = arrays.filter { entry[$0.name] is [Any] }
            if present.isEmpty {
                c.emit(
                    RuleID.Plist.pinningNoIdentities, .error,
                    "pinned domain \(name) has neither NSPinnedCAIdentities nor NSPinnedLeafIdentities: it pins "
                        + "nothing",
                    at: path)
                continue
            }
            var validPins = 0
            var placeholders: [[String]] = []
            for key in present {
                let identities = entry[key.name] as! [Any]
                let arrayPath = path + [key.name]
                if identities.isEmpty {
                    c.emit(
                        RuleID.Plist.pinningEmptyIdentities, .warning,
                        "\(key.name) of \(name) is an empty array: no certificate can match it", at: arrayPath)
                }
                for (i, identity) in identities.enumerated() {
                    let identityPath = arrayPath + [String(i)]
                    guard checkIdentity(c, identity, domain: name, at: identityPath) else { continue }
                    let pin = (PlistNode.dictionary(identity)?[ATSKey.spkiSHA256Base64.name] as? String) ?? ""
                    if PinPlaceholder.isPlaceholder(base64: pin) {
                        placeholders.append(identityPath + [ATSKey.spkiSHA256Base64.name])
                    } else {
                        validPins += 1
                    }
                }
            }
            let shown = placeholders.map {
                c.document.line(forATSKeyPath: $0).map { "line \($0)" } ?? $0.joined(separator: ".")
            }
            if validPins == 1 {
                let also =
                    placeholders.isEmpty
                    ? "" : " (its other pin, \(DuplicateKeyRules.listed(shown)), is a placeholder that matches no key)"
                c.emit(
                    RuleID.Plist.pinningNoBackup, .warning,
                    "pinned domain \(name) has a single pin and no backup\(also): a key rotation or new CA would break "
                        + "every connection until an app update",
                    at: path)
            } else if let first = placeholders.first {
                let count = placeholders.count == 1 ? "a placeholder pin" : "\(placeholders.count) placeholder pins"
                let effect =
                    validPins == 0
                    ? "every pin of the domain is one, so no certificate can match and every connection to it fails"
                    : "they match no key, so they are no backup"
                c.emit(
                    RuleID.Plist.pinningPlaceholder, validPins == 0 ? .error : .note,
                    "pinned domain \(name) has \(count) (one character repeated, \(DuplicateKeyRules.listed(shown))): "
                        + "\(effect); pin a real backup key",
                    at: first)
            }
        }
    }

    /// Checks one identity; returns whether it is a usable pin.
    private static func checkIdentity(_ c: LintContext, _ identity: Any, domain: String, at path: [String]) -> Bool {
        let spkiKey = ATSKey.spkiSHA256Base64.name
        guard let dict = PlistNode.dictionary(identity) else {
            c.emit(
                RuleID.Plist.valueWrongType, .error,
                "pinned identity \(path.last!) of \(domain) is \(PlistNode(identity).typeName), not a <dict> with "
                    + "\(spkiKey): Apple skips it",
                at: path)
            return false
        }
        guard let raw = dict[spkiKey] else {
            c.emit(
                RuleID.Plist.pinningMissingSPKI, .error,
                "pinned identity \(path.last!) of \(domain) has no \(spkiKey) key: it pins nothing", at: path)
            return false
        }
        guard case .string(let text) = PlistNode(raw) else {
            c.emit(
                RuleID.Plist.valueWrongType, .error,
                "\(spkiKey) of \(domain) is \(PlistNode(raw).typeName), not a <string>: Apple skips it",
                at: path + [spkiKey])
            return false
        }
        // 64 hex digits are also valid Base64 (of 48 bytes), so hex is named in the length message.
        let looksHex = (text.count == 64 || text.count == 40) && text.allSatisfy(\.isHexDigit)
        guard let digest = Data(base64Encoded: text) else {
            c.emit(
                RuleID.Plist.pinningInvalidBase64, .error,
                "\(spkiKey) of \(domain) is not valid Base64: Apple skips it", at: path + [spkiKey])
            return false
        }
        guard digest.count == 32 else {
            let hint =
                looksHex
                ? " (it looks like a hex digest; Apple wants the Base64 of the 32 bytes)"
                : digest.count == 20 ? " (a SHA-1 digest?)" : ""
            c.emit(
                RuleID.Plist.pinningWrongDigestLength, .error,
                "\(spkiKey) of \(domain) decodes to \(digest.count) bytes\(hint), not the 32 of a SHA-256 digest: no "
                    + "certificate can match it",
                at: path + [spkiKey])
            return false
        }
        return true
    }
}
