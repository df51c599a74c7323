import Foundation
import TLSModel

/// One `NSPinnedDomains` entry, read once for every pinned domain rule (docs/apple-rules.md §3.3): it needs
/// `NSPinnedCAIdentities` and/or `NSPinnedLeafIdentities`, each an array of dictionaries holding an
/// `SPKI-SHA256-BASE64` string: the Base64 of a SHA-256 digest, so exactly 32 bytes. Apple skips malformed Base64
/// entries.
struct PinnedEntry {
    /// What Apple makes of one pinned identity: the first problem it has, or its pin.
    enum Identity {
        /// Not a dictionary (the value's type name).
        case notDictionary(String)
        /// A dictionary without `SPKI-SHA256-BASE64`.
        case missingSPKI
        /// `SPKI-SHA256-BASE64` is not a string (its type name).
        case notString(String)
        /// The string is not Base64.
        case invalidBase64
        /// The Base64 decodes to a length other than 32 (the length, and whether the text looks like a hex digest).
        case wrongLength(Int, looksHex: Bool)
        /// A usable pin.
        case pin(String)
    }

    /// One identity of one of the entry's arrays.
    struct IdentityEntry {
        /// Where the identity is: the container, the domain, the array and the index.
        let path: [String]
        /// What Apple makes of it.
        let identity: Identity
    }

    /// The domain key.
    let name: String
    /// Where the rules report: `NSPinnedDomains` and the key.
    var path: [String] { [ATSKey.pinnedDomains.name, name] }
    /// The identity arrays present (an array value), CA first.
    let present: [(key: ATSKey, identities: [Any])]
    /// Every identity of the present arrays, in order.
    let identities: [IdentityEntry]

    /// The `SPKI-SHA256-BASE64` paths of the placeholder pins, in order.
    var placeholders: [[String]] {
        identities.compactMap {
            guard case .pin(let pin) = $0.identity, PinPlaceholder.isPlaceholder(base64: pin) else { return nil }
            return $0.path + [ATSKey.spkiSHA256Base64.name]
        }
    }

    /// How many usable pins are not placeholders.
    var validPins: Int {
        identities.filter {
            guard case .pin(let pin) = $0.identity else { return false }
            return !PinPlaceholder.isPlaceholder(base64: pin)
        }.count
    }

    /// Reads an entry whose value is a dictionary.
    init(name: String, entry: [String: Any]) {
        self.name = name
        let path = [ATSKey.pinnedDomains.name, name]
        present = [ATSKey.pinnedCAIdentities, .pinnedLeafIdentities].compactMap { key in
            (entry[key.name] as? [Any]).map { (key, $0) }
        }
        identities = present.flatMap { key, identities in
            identities.enumerated().map {
                IdentityEntry(path: path + [key.name, String($0.offset)], identity: Self.read($0.element))
            }
        }
    }

    /// What Apple makes of one identity.
    private static func read(_ identity: Any) -> Identity {
        let spkiKey = ATSKey.spkiSHA256Base64.name
        guard let dict = PlistNode.dictionary(identity) else { return .notDictionary(PlistNode(identity).typeName) }
        guard let raw = dict[spkiKey] else { return .missingSPKI }
        guard case .string(let text) = PlistNode(raw) else { return .notString(PlistNode(raw).typeName) }
        // 64 hex digits are also valid Base64 (of 48 bytes), so hex is named in the length message.
        let looksHex = (text.count == 64 || text.count == 40) && text.allSatisfy(\.isHexDigit)
        guard let digest = Data(base64Encoded: text) else { return .invalidBase64 }
        guard digest.count == 32 else { return .wrongLength(digest.count, looksHex: looksHex) }
        return .pin(text)
    }

    /// The dictionary entries of `NSPinnedDomains` that are not ATS keys, sorted by name.
    static func all(in c: LintContext) -> [PinnedEntry] {
        c.pinnedDomains.compactMap { name, value in
            guard let entry = PlistNode.dictionary(value), ATSKey.named(name) == nil else { return nil }
            return PinnedEntry(name: name, entry: entry)
        }
    }
}
