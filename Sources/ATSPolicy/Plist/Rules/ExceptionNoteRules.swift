import TLSModel

extension RuleID.Plist {
    /// `plist.domain.subdomains-on-tld` (its entry is below).
    package static let domainSubdomainsOnTLD: RuleID = "plist.domain.subdomains-on-tld"
    /// `plist.value.forward-secrecy-off` (its entry is below).
    package static let valueForwardSecrecyOff: RuleID = "plist.value.forward-secrecy-off"
}

/// Notes on what an `NSExceptionDomains` entry reaches and relaxes that its keys do not say on their face:
/// - `plist.domain.subdomains-on-tld`: `NSIncludesSubdomains` on a single-label key (`onion`, `test`) covers every
///   name under that top-level name, at any depth (Apple's Security source, `SecProtocolConfiguration.m`, walks
///   every label);
/// - `plist.value.forward-secrecy-off`: `NSExceptionRequiresForwardSecrecy = NO` adds the RSA key-exchange suites
///   and drops the ATS key-size check (Apple's documentation of `NSExceptionRequiresForwardSecrecy`).
struct ExceptionNoteRules: PlistLintRule {
    /// The catalogue entries of the ids the rule emits, in documentation order.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Plist.domainSubdomainsOnTLD, .plist, .note,
                title: "NSIncludesSubdomains on a bare top-level name: the entry covers every name under it.",
                help: """
                    An entry for a single-label name such as `onion` or `test` with `NSIncludesSubdomains` reaches every \
                    host under that top-level name. With `NSExceptionAllowsInsecureHTTPLoads` that is plain HTTP to all \
                    of them (deliberate for `.onion`, where Tor encrypts the transport). Check the breadth is meant.
                    """,
                appleKey: "NSIncludesSubdomains"),
            RuleDescriptor(
                RuleID.Plist.valueForwardSecrecyOff, .plist, .note,
                title: "NSExceptionRequiresForwardSecrecy = NO adds RSA key exchange and drops the ATS key-size check.",
                help: """
                    Apple's documentation for the key: with `NO`, the host may negotiate TLS 1.2 suites without forward \
                    secrecy (RSA key exchange), and ATS no longer checks the server key's size (the system trust rule \
                    of RSA 2048 bits still applies). Set it only for a server that cannot do ECDHE.
                    """,
                appleKey: "NSExceptionRequiresForwardSecrecy"),
        ]
    }

    func check(_ c: LintContext) { Self.check(c) }

    static func check(_ c: LintContext) {
        for (name, value) in c.exceptionDomains {
            guard let entry = PlistNode.dictionary(value), ATSKey.named(name) == nil,
                !BuildSettings.refersToSetting(name)
            else { continue }
            let path = [ATSKey.exceptionDomains.name, name]
            let insecure = c.entryBool(entry, .exceptionAllowsInsecureHTTPLoads) == true
            if c.entryBool(entry, .includesSubdomains) == true, isTopLevelName(name) {
                let relaxed =
                    insecure
                    ? "plain HTTP is allowed to every one of them (fine for .onion, where Tor encrypts the transport)"
                    : "whatever the entry sets applies to every one of them"
                c.emit(
                    RuleID.Plist.domainSubdomainsOnTLD, .note,
                    "NSIncludesSubdomains on \(name), a bare top-level name: the entry covers every host name ending "
                        + "in .\(name), at any depth, and \(relaxed)",
                    at: path + [ATSKey.includesSubdomains.name])
            }
            if c.entryBool(entry, .exceptionRequiresForwardSecrecy) == false {
                c.emit(
                    RuleID.Plist.valueForwardSecrecyOff, .note,
                    "NSExceptionRequiresForwardSecrecy = NO for \(name): TLS 1.2 may use RSA key exchange (no forward "
                        + "secrecy), and ATS no longer checks the server key's size (the system rule of RSA 2048 bits "
                        + "still applies); set it only for a server that cannot do ECDHE",
                    at: path + [ATSKey.exceptionRequiresForwardSecrecy.name])
            }
        }
    }

    /// A single-label host name (`onion`, `test`), not an address, `localhost` or a local name.
    static func isTopLevelName(_ name: String) -> Bool {
        let bare = name.hasSuffix(".") ? String(name.dropLast()) : name
        guard !bare.isEmpty, !bare.contains("."), !bare.contains("/"), !bare.contains(":"),
            IPAddress(literal: bare) == nil, bare.lowercased() != "localhost"
        else { return false }
        return bare.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" }
    }
}
