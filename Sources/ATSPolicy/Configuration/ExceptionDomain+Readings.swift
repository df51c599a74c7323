import TLSModel

/// The values of an exception entry written only under the iOS 9-era spellings (docs/apple-rules.md §3.2:
/// `NSThirdPartyException…`, `NSTemporaryException…`, `NSTemporaryThirdPartyException…`), each kept only
/// when the entry does not also set the `NSException…` key it stands for.
public struct LegacyExceptionValues: Sendable, Equatable {
    public var allowsInsecureHTTPLoads: Bool?
    /// A valid minimum TLS version; an invalid one is dropped, as for `NSExceptionMinimumTLSVersion`.
    public var minimumTLSVersion: TLSVersion?
    public var requiresForwardSecrecy: Bool?

    public init(
        allowsInsecureHTTPLoads: Bool? = nil, minimumTLSVersion: TLSVersion? = nil, requiresForwardSecrecy: Bool? = nil
    ) {
        self.allowsInsecureHTTPLoads = allowsInsecureHTTPLoads
        self.minimumTLSVersion = minimumTLSVersion
        self.requiresForwardSecrecy = requiresForwardSecrecy
    }

    /// Whether no legacy key contributes a value.
    public var isEmpty: Bool {
        allowsInsecureHTTPLoads == nil && minimumTLSVersion == nil && requiresForwardSecrecy == nil
    }
}

extension ExceptionDomain {
    /// The entry as an OS that ignores per-domain numbers reads it: every boolean written as a number
    /// takes its default (insecure NO, subdomains NO, RFS YES, CT NO), §3.4 before the correction.
    public func ignoringNumericBooleans() -> ExceptionDomain {
        var e = self
        for key in numericBooleanKeys {
            switch key {
            case ATSKey.includesSubdomains.name: e.includesSubdomains = false
            case ATSKey.exceptionAllowsInsecureHTTPLoads.name: e.allowsInsecureHTTPLoads = false
            case ATSKey.exceptionRequiresForwardSecrecy.name: e.requiresForwardSecrecy = true
            case ATSKey.requiresCertificateTransparency.name: e.requiresCertificateTransparency = false
            default: break
            }
        }
        return e
    }

    /// The entry as older Security source reads it (§3.4): a boolean written as a string takes its
    /// `boolValue` instead of the default.
    public func honouringStringBooleans() -> ExceptionDomain {
        var e = self
        for (key, value) in stringBooleanValues {
            switch key {
            case ATSKey.includesSubdomains.name: e.includesSubdomains = value
            case ATSKey.exceptionAllowsInsecureHTTPLoads.name: e.allowsInsecureHTTPLoads = value
            case ATSKey.exceptionRequiresForwardSecrecy.name: e.requiresForwardSecrecy = value
            case ATSKey.requiresCertificateTransparency.name: e.requiresCertificateTransparency = value
            default: break
            }
        }
        return e
    }

    /// The entry as an OS that honours the iOS 9-era spellings reads it (§3.2): each legacy value stands
    /// in for its absent `NSException…` key.
    public func honouringLegacyKeys() -> ExceptionDomain {
        guard let legacy = legacyValues else { return self }
        var e = self
        if let v = legacy.allowsInsecureHTTPLoads { e.allowsInsecureHTTPLoads = v }
        if let v = legacy.minimumTLSVersion { e.minimumTLSVersion = v }
        if let v = legacy.requiresForwardSecrecy { e.requiresForwardSecrecy = v }
        return e
    }
}
