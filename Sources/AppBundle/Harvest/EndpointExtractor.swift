/// Finds `http://`/`https://` URLs and bare host names in one printable run. Precision matters more than
/// recall: a wrong host costs a reviewer's time and a failed scan, a missed one is added by hand with
/// `--endpoints`. So bare names need a lower-case spelling, a top-level label from ``topLevels`` and, for two
/// labels, a generic one (`acme.com`, not `socket.io` or `moment.js`).
enum EndpointExtractor {
    /// One match in a run.
    struct Match: Equatable {
        enum Kind: Equatable { case https, http, host }
        var kind: Kind
        var host: String
        var port: Int?
        /// The URL or name as found (trailing punctuation removed).
        var text: String
        /// Where in the run it starts (UTF-8 offset).
        var offset: Int
    }

    /// Top-level labels a bare host name may end with: common generic ones and large country codes, minus
    /// every label that is also a file extension found in bundles (`app`, `zip`, `mov`, `rs`, `md`, `so`, `sh`,
    /// `py`, `cc`, `pl`, `ai`, `ps`, `am`, `car`).
    static let topLevels: Set<String> = [
        "com", "net", "org", "edu", "gov", "mil", "int", "io", "co", "dev", "cloud", "info", "biz", "me", "us", "uk",
        "de", "fr", "jp", "cn", "ru", "br", "in", "au", "ca", "nl", "es", "it", "se", "ch", "kr", "eu", "tv", "fm",
        "no",
        "dk", "fi", "at", "be", "nz", "sg", "hk", "tw", "ie", "il", "mx", "ar", "za", "ph", "id", "vn", "tr", "pt",
        "gr",
        "cz", "hu", "ro", "ua", "online", "site", "tech", "xyz", "store", "shop", "network", "services", "test",
    ]
    /// Top-level labels that may stand after a single label (`acme.com`).
    static let twoLabelTopLevels: Set<String> = ["com", "net", "org", "edu", "gov", "test"]

    /// The longest URL text kept as a match's example (the host and port are read from the whole authority).
    static let maxExampleBytes = 2048
    /// The longest authority (`user@host:port`) read; a longer run of bytes is no host.
    static let maxAuthorityBytes = 1024
    /// The longest token considered as a bare host name (a name is at most 253 bytes, plus dots and a port).
    static let maxTokenBytes = 512

    /// The matches in a string (a binary plist's key or value).
    static func matches(in text: String, filter: HarvestFilter) -> [Match] {
        Array(text.utf8).withUnsafeBytes { matches(in: $0, filter: filter) }
    }

    /// The matches in one printable run, offsets from its start. Linear in the run: the run is read in place,
    /// URLs are masked by their ranges (not a flag per byte), and no string longer than ``maxExampleBytes``,
    /// ``maxAuthorityBytes`` or ``maxTokenBytes`` is made, however long the run.
    static func matches(in bytes: UnsafeRawBufferPointer, filter: HarvestFilter) -> [Match] {
        var found: [Match] = []
        var urls: [Range<Int>] = []
        var index = 0
        while index < bytes.count {
            guard let (kind, schemeLength) = scheme(bytes, index) else {
                index += 1
                continue
            }
            let end = urlEnd(bytes, from: index + schemeLength)
            urls.append(index..<end)
            let shown = min(end, index + maxExampleBytes)
            let raw = String(decoding: bytes[index..<shown], as: UTF8.self)
            let text = shown == end ? trimmed(raw) : raw
            if let (host, port) = authority(bytes, from: index + schemeLength, to: end),
                !isNamespace(bytes, before: index), !filter.excludes(host: host),
                !filter.excludes(urlWithoutScheme: String(text.dropFirst(schemeLength)))
            {
                found.append(Match(kind: kind, host: host, port: port, text: text, offset: index))
            }
            index = max(end, index + 1)
        }
        return found + bareHosts(bytes, masked: urls, filter: filter)
    }

    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    private static let https = Array("https://".utf8)
    private static let http = Array("http://".utf8)

    private static func scheme(_ b: UnsafeRawBufferPointer, _ i: Int) -> (Match.Kind, Int)? {
        // Most bytes are not an `h`: no work for them.
        guard lower(b[i]) == 0x68 else { return nil }
        let kind: Match.Kind
        if startsWith(b, i, https) {
            kind = .https
        } else if startsWith(b, i, http) {
            kind = .http
        } else {
            return nil
        }
        // `xhttps://` is not a URL start.
        if i > 0, isWordByte(b[i - 1]) { return nil }
        return (kind, kind == .https ? https.count : http.count)
    }

    /// Whether the bytes at `i` spell `prefix` (lower-case ASCII), in any case.
    private static func startsWith(_ b: UnsafeRawBufferPointer, _ i: Int, _ prefix: [UInt8]) -> Bool {
        guard i + prefix.count <= b.count else { return false }
        for k in 0..<prefix.count where lower(b[i + k]) != prefix[k] { return false }
        return true
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// URLs end at whitespace, quotes, angle brackets, backslashes, backticks, braces, pipes and carets.
    private static func urlEnd(_ b: UnsafeRawBufferPointer, from start: Int) -> Int {
        var i = start
        while i < b.count, !isURLStop(b[i]) { i += 1 }
        return i
    }

    private static func isURLStop(_ b: UInt8) -> Bool {
        switch b {
        case 0x20, 0x22, 0x27, 0x3C, 0x3E, 0x5C, 0x60, 0x7B, 0x7D, 0x7C, 0x5E: return true
        default: return false
        }
    }

    private static func trimmed(_ text: String) -> String {
        var t = Substring(text)
        while let last = t.last, ".,;:)]!?*".contains(last) { t = t.dropLast() }
        return String(t)
    }

    /// The host (lower case) and port of the authority, or nil when it is a template (`%@`, `${x}`) or no host.
    /// Read as bytes (the rules are ASCII ones): one string is made, for the host kept.
    private static func authority(_ b: UnsafeRawBufferPointer, from start: Int, to end: Int) -> (String, Int?)? {
        var stop = start
        while stop < end, b[stop] != 0x2F, b[stop] != 0x3F, b[stop] != 0x23 { stop += 1 }
        guard stop - start <= maxAuthorityBytes else { return nil }
        // `user:password@host`: the host follows the last `@`.
        var first = start
        if let at = (start..<stop).last(where: { b[$0] == 0x40 }) { first = at + 1 }
        var last = stop
        var port: Int?
        if first == last || b[first] != 0x5B, let colon = (first..<stop).last(where: { b[$0] == 0x3A }) {
            let digits = colon + 1..<stop
            guard digits.allSatisfy({ b[$0] >= 0x30 && b[$0] <= 0x39 }) else { return nil }
            // As `Int(String)`: no digits, or too many for an Int, is no port (the scheme's default).
            var value: Int? = digits.isEmpty ? nil : 0
            for at in digits {
                guard let soFar = value else { break }
                let (times, o1) = soFar.multipliedReportingOverflow(by: 10)
                let (sum, o2) = times.addingReportingOverflow(Int(b[at] - 0x30))
                value = o1 || o2 ? nil : sum
            }
            port = value
            if let p = port, !(1...65535).contains(p) { return nil }
            last = colon
        }
        while last > first, b[last - 1] == 0x2E { last -= 1 }
        let host = (first..<last).map { lower(b[$0]) }
        if host.first == 0x5B, host.last == 0x5D { return (String(decoding: host, as: UTF8.self), port) }
        guard isIPv4(host) || validName(host) && isAlphabeticTopLevel(host) else { return nil }
        return (String(decoding: host, as: UTF8.self), port)
    }

    /// Four dot-separated decimal numbers 0–255 of at most three digits.
    private static func isIPv4(_ host: [UInt8]) -> Bool {
        let parts = host.split(separator: 0x2E, omittingEmptySubsequences: false)
        return parts.count == 4
            && parts.allSatisfy { part in
                !part.isEmpty && part.count <= 3 && part.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
                    && part.reduce(0) { $0 * 10 + Int($1 - 0x30) } <= 255
            }
    }

    /// The last label is letters only, at least two.
    private static func isAlphabeticTopLevel(_ host: [UInt8]) -> Bool {
        let top = host.split(separator: 0x2E, omittingEmptySubsequences: false).last ?? []
        return top.count >= 2 && top.allSatisfy { ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x41 && $0 <= 0x5A) }
    }

    /// LDH labels, at least two, each 1–63 characters, not starting or ending with a hyphen.
    static func validName(_ host: String) -> Bool { validName(Array(host.utf8)) }

    /// ``validName(_:)`` on bytes.
    static func validName(_ host: [UInt8]) -> Bool {
        guard host.count <= 253 else { return false }
        let labels = host.split(separator: 0x2E, omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && label.first != 0x2D && label.last != 0x2D
                && label.allSatisfy { isWordByte($0) && $0 != 0x5F || $0 == 0x2D }
        }
    }

    /// `xmlns="http://…"`, `xmlns:x="…"`, `schemaLocation="…"`: a namespace, never contacted.
    private static func isNamespace(_ b: UnsafeRawBufferPointer, before index: Int) -> Bool {
        let window = UnsafeRawBufferPointer(rebasing: b[max(0, index - 48)..<index])
        return namespaceMarkers.contains { marker in
            window.count >= marker.count
                && (0...(window.count - marker.count)).contains { at in
                    (0..<marker.count).allSatisfy { window[at + $0] == marker[$0] }
                }
        }
    }

    private static let namespaceMarkers = ["xmlns", "schemaLocation", "DOCTYPE"].map { Array($0.utf8) }

    /// Bare names outside the URLs found (`masked`: their ranges, in order).
    private static func bareHosts(_ b: UnsafeRawBufferPointer, masked: [Range<Int>], filter: HarvestFilter) -> [Match] {
        var found: [Match] = []
        var next = 0  // the first URL range that does not end before the byte looked at (bytes are visited in order)
        func isMasked(_ i: Int) -> Bool {
            while next < masked.count, masked[next].upperBound <= i { next += 1 }
            return next < masked.count && masked[next].contains(i)
        }
        var i = 0
        func isTokenByte(_ x: UInt8) -> Bool { isWordByte(x) || x == 0x2E || x == 0x2D }
        while i < b.count {
            guard !isMasked(i), isTokenByte(b[i]) else {
                i += 1
                continue
            }
            var end = i
            while end < b.count, !isMasked(end), isTokenByte(b[end]) { end += 1 }
            defer { i = end }
            guard end - i <= maxTokenBytes else { continue }
            let before: UInt8? = i > 0 ? b[i - 1] : nil
            var token = String(decoding: b[i..<end], as: UTF8.self)
            while token.hasSuffix(".") { token.removeLast() }
            var port: Int?
            if end < b.count, b[end] == 0x3A {
                var p = end + 1
                while p < b.count, p - end <= 6, b[p] >= 0x30, b[p] <= 0x39 { p += 1 }
                if p > end + 1, p - end - 1 <= 5 { port = Int(String(decoding: b[end + 1..<p], as: UTF8.self)) }
            }
            // Not a path component, an e-mail domain, a key path or a scheme-less `//host` of another scheme.
            let contextOK = before.map { !"/@\\:$%".utf8.contains($0) } ?? true
            if contextOK, isPlausibleHost(token), !filter.excludes(host: token),
                port.map({ (1...65535).contains($0) }) ?? true
            {
                found.append(
                    Match(kind: .host, host: token, port: port, text: port.map { "\(token):\($0)" } ?? token, offset: i)
                )
            }
        }
        return found
    }

    /// A lower-case LDH name with a listed top-level label, not a reverse-DNS identifier (`com.acme.sdk`).
    static func isPlausibleHost(_ token: String) -> Bool {
        guard validName(token), token == token.lowercased() else { return false }
        let labels = token.split(separator: ".").map(String.init)
        guard let top = labels.last, topLevels.contains(top), !top.allSatisfy(\.isNumber) else { return false }
        if labels.count == 2 && !twoLabelTopLevels.contains(top) { return false }
        if labels.count >= 3, topLevels.contains(labels[0]) { return false }
        return true
    }
}
