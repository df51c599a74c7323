import ATSPolicy
import TLSModel

/// The relaxations an `NSExceptionDomains` entry grants, or that a set of endpoints needs.
struct ExceptionNeeds: Equatable {
    /// The lowest TLS version that must be allowed (TLS 1.2 = no relaxation).
    var minimumTLS: TLSVersion = .tls1_2
    var forwardSecrecyOff = false
    var insecureHTTP = false
    var includesSubdomains = false

    /// Whether anything is relaxed (`NSIncludesSubdomains` alone relaxes nothing).
    var relaxesAnything: Bool { minimumTLS < .tls1_2 || forwardSecrecyOff || insecureHTTP }

    init() {}

    /// The needs expressed by a minimal-exception dictionary.
    init(minimal: PlistValue?) {
        let d = minimal?.dictionary ?? [:]
        if case .string(let v)? = d[ATSKey.exceptionMinimumTLSVersion.name], let version = TLSVersion(name: v) {
            minimumTLS = min(version, .tls1_2)
        }
        if case .bool(false)? = d[ATSKey.exceptionRequiresForwardSecrecy.name] { forwardSecrecyOff = true }
        if case .bool(true)? = d[ATSKey.exceptionAllowsInsecureHTTPLoads.name] { insecureHTTP = true }
    }

    /// What an entry grants.
    init(granted entry: ExceptionDomain) {
        minimumTLS = min(entry.effectiveMinimumTLSVersion, .tls1_2)
        forwardSecrecyOff = !entry.requiresForwardSecrecy
        insecureHTTP = entry.allowsInsecureHTTPLoads
        includesSubdomains = entry.includesSubdomains
    }

    /// The union of two sets of needs.
    func merged(_ other: ExceptionNeeds) -> ExceptionNeeds {
        var result = self
        result.minimumTLS = min(minimumTLS, other.minimumTLS)
        result.forwardSecrecyOff = forwardSecrecyOff || other.forwardSecrecyOff
        result.insecureHTTP = insecureHTTP || other.insecureHTTP
        result.includesSubdomains = includesSubdomains || other.includesSubdomains
        return result
    }

    /// The entry's keys (only the ones that differ from Apple's defaults).
    var entry: [String: PlistValue] {
        var d: [String: PlistValue] = [:]
        if includesSubdomains { d[ATSKey.includesSubdomains.name] = .bool(true) }
        if minimumTLS < .tls1_2 { d[ATSKey.exceptionMinimumTLSVersion.name] = .string(minimumTLS.name) }
        if forwardSecrecyOff { d[ATSKey.exceptionRequiresForwardSecrecy.name] = .bool(false) }
        if insecureHTTP { d[ATSKey.exceptionAllowsInsecureHTTPLoads.name] = .bool(true) }
        return d
    }

    /// The relaxed keys, one short phrase each (`NSExceptionMinimumTLSVersion = TLSv1.0`).
    var phrases: [String] {
        entry.keys.sorted().filter { $0 != ATSKey.includesSubdomains.name }.map { key in
            switch entry[key]! {
            case .bool(let b): return "\(key) = \(b ? "YES" : "NO")"
            case .string(let s): return "\(key) = \(s)"
            default: return key
            }
        }
    }
}

extension ExceptionDomain {
    /// The keys Apple reads from the entry, with their effective values (defaults left out).
    var plistValue: PlistValue {
        var d: [String: PlistValue] = [:]
        if includesSubdomains { d[ATSKey.includesSubdomains.name] = .bool(true) }
        if allowsInsecureHTTPLoads { d[ATSKey.exceptionAllowsInsecureHTTPLoads.name] = .bool(true) }
        if let minimumTLSVersion { d[ATSKey.exceptionMinimumTLSVersion.name] = .string(minimumTLSVersion.name) }
        if !requiresForwardSecrecy { d[ATSKey.exceptionRequiresForwardSecrecy.name] = .bool(false) }
        if requiresCertificateTransparency { d[ATSKey.requiresCertificateTransparency.name] = .bool(true) }
        if let niapPackage { d[ATSKey.exceptionRequiresNIAPTLSPackageVersion.name] = .string(niapPackage.rawValue) }
        return .dict(d)
    }
}
