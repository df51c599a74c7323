import TLSModel

/// What kind of host a URL names, for the local-network and IP-literal rules of §4.5.
package enum HostKind: Sendable, Equatable {
    /// A dotted public DNS name.
    case publicName
    /// An unqualified name (`myserver`, `localhost`) or a `.local` / `.local.` name.
    case localName
    /// An IP literal; `local` for loopback and link-local addresses (SRC's test classification).
    case ipLiteral(IPAddress, local: Bool)

    /// Classifies a host as Security's tests do (§4.5 notes).
    package init(host: String) { self.init(host: host, address: IPAddress(literal: host)) }

    /// Classifies a host whose IP literal (if any) is already parsed.
    init(host: String, address: IPAddress?) {
        if let ip = address {  // a zone id makes a name, not a literal
            self = .ipLiteral(ip, local: ip.isLoopback || ip.isLinkLocal)
            return
        }
        var name = host.lowercased()
        if name.hasSuffix(".") { name.removeLast() }
        if !name.contains(".") || name.hasSuffix(".local") {
            self = .localName
        } else {
            self = .publicName
        }
    }

    package var isIPLiteral: Bool {
        if case .ipLiteral = self { return true }
        return false
    }
}
