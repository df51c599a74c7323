import TLSModel

/// How far `NSIncludesSubdomains` reaches: a documented CONFLICT (reference §4.4).
public enum SubdomainDepth: String, Sendable, CaseIterable {
    /// DOC: only subdomains one label deeper (`a.example.com`, not `b.a.example.com`).
    case oneLevel = "doc-one-level"
    /// SRC: any depth; the nearest ancestor with `NSIncludesSubdomains = YES` wins.
    case anyDepth = "source-any-depth"
}

/// The exception entry that governs a host.
public struct ExceptionMatch: Sendable, Equatable {
    /// The `NSExceptionDomains` key that matched (a name, an IP literal or a CIDR range).
    public var key: String
    public var entry: ExceptionDomain
    /// A built-in Apple entry (§4.3) rather than the app's.
    public var builtIn: Bool
    /// Labels between the host and the matched key (0 for an exact match).
    public var depth: Int
}

extension ATSConfiguration {
    /// Finds the `NSExceptionDomains` entry for `host` (§4.4, §4.5): exact keys (case- and trailing-dot
    /// sensitive) beat ancestors; ancestors count only with `NSIncludesSubdomains = YES`, as deep as
    /// `depth` allows; IP literals match IP keys exactly, then the longest CIDR prefix, and only from
    /// iOS 17 on; the built-in Apple entries apply where the app has no entry of its own.
    /// - Parameters:
    ///   - host: the URL's host, as the app writes it.
    ///   - os: the OS whose rules apply.
    ///   - depth: the subdomain-depth reading.
    /// - Returns: the governing entry, or nil.
    public func exception(for host: String, os: AppleOSVersion, depth: SubdomainDepth) -> ExceptionMatch? {
        if let ip = IPAddress(literal: host) {
            guard os.ipLiteralsRequireATS else { return nil }  // IP keys were not honoured before iOS 17
            for (key, entry) in exceptionDomains where !key.contains("/") {
                if let keyIP = IPAddress(literal: key), keyIP == ip {
                    return ExceptionMatch(key: key, entry: entry, builtIn: false, depth: 0)
                }
            }
            var best: (String, ExceptionDomain, Int)?
            for (key, entry) in exceptionDomains where key.contains("/") {
                guard let range = CIDRRange(key), range.contains(ip) else { continue }
                if best == nil || range.prefixLength > best!.2 { best = (key, entry, range.prefixLength) }
            }
            return best.map { ExceptionMatch(key: $0.0, entry: $0.1, builtIn: false, depth: 0) }
        }
        if let entry = exceptionDomains[host] {
            return ExceptionMatch(key: host, entry: entry, builtIn: false, depth: 0)
        }
        var labels = host.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var level = 0
        while labels.count > 1 {
            labels.removeFirst()
            level += 1
            let ancestor = labels.joined(separator: ".")
            if let entry = exceptionDomains[ancestor], entry.includesSubdomains {
                if depth == .oneLevel && level > 1 { break }
                return ExceptionMatch(key: ancestor, entry: entry, builtIn: false, depth: level)
            }
            if depth == .oneLevel && level >= 1 && exceptionDomains[ancestor] != nil { break }
        }
        return builtInException(for: host)
    }

    /// The built-in Apple entry for `host`, unless the app has an entry with the same key.
    /// Built-ins are a Security-source construct, so they use its any-depth walk.
    func builtInException(for host: String) -> ExceptionMatch? {
        var labels = host.lowercased().split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        var level = 0
        while !labels.isEmpty {
            let candidate = labels.joined(separator: ".")
            if exceptionDomains[candidate] == nil, let entry = BuiltInExceptions.entries[candidate] {
                return ExceptionMatch(key: candidate, entry: entry, builtIn: true, depth: level)
            }
            labels.removeFirst()
            level += 1
        }
        return nil
    }
}
