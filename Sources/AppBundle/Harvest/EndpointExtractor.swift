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

    static func matches(in run: String, filter: HarvestFilter) -> [Match] {
        let bytes = Array(run.utf8)
        var found: [Match] = []
        var masked = [Bool](repeating: false, count: bytes.count)
        var index = 0
        while index < bytes.count {
            guard let (kind, schemeLength) = scheme(bytes, index) else {
                index += 1
                continue
            }
            let end = urlEnd(bytes, from: index + schemeLength)
            for i in index..<end { masked[i] = true }
            let text = trimmed(String(decoding: bytes[index..<end], as: UTF8.self))
            if let (host, port) = authority(bytes, from: index + schemeLength, to: end),
                !isNamespace(bytes, before: index), !filter.excludes(host: host),
                !filter.excludes(urlWithoutScheme: String(text.dropFirst(schemeLength)))
            {
                found.append(Match(kind: kind, host: host, port: port, text: text, offset: index))
            }
            index = max(end, index + 1)
        }
        return found + bareHosts(bytes, masked: masked, filter: filter)
    }

    private static func lower(_ b: UInt8) -> UInt8 { b >= 0x41 && b <= 0x5A ? b + 0x20 : b }

    private static func scheme(_ b: [UInt8], _ i: Int) -> (Match.Kind, Int)? {
        for (prefix, kind) in [("https://", Match.Kind.https), ("http://", .http)] {
            let p = Array(prefix.utf8)
            guard i + p.count <= b.count else { continue }
            if (0..<p.count).allSatisfy({ lower(b[i + $0]) == p[$0] }) {
                // `xhttps://` is not a URL start.
                if i > 0, isWordByte(b[i - 1]) { return nil }
                return (kind, p.count)
            }
        }
        return nil
    }

    private static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// URLs end at whitespace, quotes, angle brackets, backslashes, backticks, braces, pipes and carets.
    private static func urlEnd(_ b: [UInt8], from start: Int) -> Int {
        var i = start
        let stops: Set<UInt8> = Set(" \"'<>\\`{}|^".utf8)
        while i < b.count, !stops.contains(b[i]) { i += 1 }
        return i
    }

    private static func trimmed(_ text: String) -> String {
        var t = Substring(text)
        while let last = t.last, ".,;:)]!?*".contains(last) { t = t.dropLast() }
        return String(t)
    }

    /// The host (lower case) and port of the authority, or nil when it is a template (`%@`, `${x}`) or no host.
    private static func authority(_ b: [UInt8], from start: Int, to end: Int) -> (String, Int?)? {
        var stop = start
        while stop < end, !"/?#".utf8.contains(b[stop]) { stop += 1 }
        var auth = String(decoding: b[start..<stop], as: UTF8.self)
        if let at = auth.lastIndex(of: "@") { auth = String(auth[auth.index(after: at)...]) }
        var port: Int?
        if !auth.hasPrefix("["), let colon = auth.lastIndex(of: ":") {
            let digits = auth[auth.index(after: colon)...]
            guard digits.isEmpty || digits.allSatisfy(\.isASCII) && digits.allSatisfy(\.isNumber) else { return nil }
            port = Int(digits)
            if let p = port, !(1...65535).contains(p) { return nil }
            auth = String(auth[..<colon])
        }
        while auth.hasSuffix(".") { auth.removeLast() }
        let host = auth.lowercased()
        if host.hasPrefix("["), host.hasSuffix("]") { return (host, port) }
        if isIPv4(host) { return (host, port) }
        guard validName(host), let top = host.split(separator: ".").last, top.allSatisfy(\.isLetter), top.count >= 2
        else {
            return nil
        }
        return (host, port)
    }

    private static func isIPv4(_ host: String) -> Bool {
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { Int($0).map { (0...255).contains($0) } ?? false && $0.count <= 3 }
    }

    /// LDH labels, at least two, each 1–63 characters, not starting or ending with a hyphen.
    static func validName(_ host: String) -> Bool {
        guard host.count <= 253 else { return false }
        let labels = host.split(separator: ".", omittingEmptySubsequences: false)
        guard labels.count >= 2 else { return false }
        return labels.allSatisfy { label in
            !label.isEmpty && label.count <= 63 && !label.hasPrefix("-") && !label.hasSuffix("-")
                && label.allSatisfy { ($0.isASCII && $0.isLetter) || ($0.isASCII && $0.isNumber) || $0 == "-" }
        }
    }

    /// `xmlns="http://…"`, `xmlns:x="…"`, `schemaLocation="…"`: a namespace, never contacted.
    private static func isNamespace(_ b: [UInt8], before index: Int) -> Bool {
        let context = String(decoding: b[max(0, index - 48)..<index], as: UTF8.self)
        return context.contains("xmlns") || context.contains("schemaLocation") || context.contains("DOCTYPE")
    }

    private static func bareHosts(_ b: [UInt8], masked: [Bool], filter: HarvestFilter) -> [Match] {
        var found: [Match] = []
        var i = 0
        func isTokenByte(_ x: UInt8) -> Bool { isWordByte(x) || x == 0x2E || x == 0x2D }
        while i < b.count {
            guard !masked[i], isTokenByte(b[i]) else {
                i += 1
                continue
            }
            var end = i
            while end < b.count, !masked[end], isTokenByte(b[end]) { end += 1 }
            let before: UInt8? = i > 0 ? b[i - 1] : nil
            var token = String(decoding: b[i..<end], as: UTF8.self)
            while token.hasSuffix(".") { token.removeLast() }
            var port: Int?
            if end < b.count, b[end] == 0x3A {
                var p = end + 1
                while p < b.count, b[p] >= 0x30, b[p] <= 0x39 { p += 1 }
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
            i = end
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
