import TLSModel

/// The host must appear in the leaf's subjectAltName (dNSName, or iPAddress for IP literals), with
/// Apple's wildcard rules; the CommonName is ignored from iOS 13 (support 103769; docs/apple-rules.md §2.1, §2.4).
/// Before iOS 13 a CN is used when the certificate has no SAN. No Info.plist key relaxes it. An empty host (a chain
/// judged by `atscheck cert` without `--host`) is not checked, as the SSL policy without a hostname does not.
struct HostnameRule: ATSRule {
    /// The catalogue entry of the id the rule emits.
    var entries: [RuleDescriptor] {
        [
            RuleDescriptor(
                RuleID.Trust.hostname, .trust, .error, title: "The certificate does not name the host.",
                help: """
                    From iOS 13 / macOS 10.15 Apple matches the host only against subjectAltName dNSName entries (or \
                    iPAddress entries for IP literals); the CommonName is ignored. A wildcard covers exactly one whole \
                    leftmost label. No Info.plist key relaxes it. Reissue the certificate with the host in its SAN.
                    """)
        ]
    }

    func apply(to context: inout RuleContext) {
        guard let certificate = context.profile.certificate, !context.host.isEmpty else { return }
        guard let leaf = context.leaf else {
            if certificate.hostnameMatches == false {
                context.fail(.Trust.hostname, "the certificate does not name \(context.host)")
            }
            return
        }
        var matches = HostnameMatching.matches(
            host: context.host, dnsNames: leaf.subjectAltNames, ipAddresses: leaf.ipAddresses)
        var cnOnly = false
        if !matches, let cn = leaf.commonName, HostnameMatching.matches(host: context.host, pattern: cn) {
            if !context.os.enforcesIOS13CertificateRules && leaf.subjectAltNames.isEmpty && leaf.ipAddresses.isEmpty {
                matches = true
            } else {
                cnOnly = true
            }
        }
        guard !matches else { return }
        let names = (leaf.subjectAltNames + leaf.ipAddresses)
        let sans = names.isEmpty ? "no subjectAltName" : "subjectAltName \(names.listed())"
        let message =
            cnOnly
            ? "\(context.host) is only in the certificate's CommonName (\(sans)); Apple matches SAN entries only "
                + "since iOS 13"
            : "certificate has \(sans) but not \(context.host); Apple matches SAN entries only (CN ignored)"
        context.fail(.Trust.hostname, message)
    }
}

extension HostnameRule: SSLPathCheck {
    /// The SSL policy's hostname check on a built path: the host against the leaf's SAN only.
    func sslPolicyFailures(path: [CertificateFacts], host: String?, anchor: SSLPolicyAnchor) -> [SSLPolicyFailure] {
        guard let leaf = path.first, let host, !host.isEmpty,
            !HostnameMatching.matches(host: host, dnsNames: leaf.subjectAltNames, ipAddresses: leaf.ipAddresses)
        else { return [] }
        let names = leaf.subjectAltNames + leaf.ipAddresses
        let has = names.isEmpty ? "no subjectAltName" : "subjectAltName \(names.listed())"
        return [
            SSLPolicyFailure(
                .Trust.hostname,
                "hostname mismatch: the certificate has \(has), not \(host) (Apple matches the SAN only)")
        ]
    }
}
