import Foundation
import TLSModel

/// One configured pin, in the form its library compares.
package struct PinIdentity: Sendable, Equatable {
    /// How the pin is shown: the Base64 SPKI hash, or the pinned certificate's name and SHA-256.
    package var label: String
    /// What is compared.
    package var kind: PinMatch.Kind
    /// The Base64 SPKI-SHA256 (for certificate pins, of the pinned certificate's key).
    package var spkiSHA256: String
    /// The pinned certificate, for certificate and public-key pins.
    package var certificate: CertificateFacts?

    /// A whole-certificate pin (AFNetworking Certificate mode, Alamofire pinned certificates).
    /// - Parameter certificate: The pinned certificate.
    /// - Returns: The pin.
    package static func certificate(_ certificate: CertificateFacts) -> PinIdentity {
        PinIdentity(
            label: "\(Describe.certificate(certificate)) (sha256 \(certificate.sha256.prefix(16))…)",
            kind: .certificate,
            spkiSHA256: certificate.spkiSHA256, certificate: certificate)
    }

    /// A public-key pin taken from a pinned certificate (AFNetworking PublicKey mode, Alamofire public keys).
    /// - Parameter certificate: The certificate the key is taken from.
    /// - Returns: The pin.
    package static func publicKey(of certificate: CertificateFacts) -> PinIdentity {
        PinIdentity(
            label: "key of \(Describe.certificate(certificate)) (spki \(certificate.spkiSHA256))", kind: .publicKey,
            spkiSHA256: certificate.spkiSHA256, certificate: certificate)
    }

    /// A Base64 SPKI-SHA256 pin (TrustKit, NSPinnedDomains).
    /// - Parameter pin: The pin text.
    /// - Returns: The pin.
    package static func spki(_ pin: String) -> PinIdentity {
        PinIdentity(label: pin, kind: .spkiSHA256, spkiSHA256: pin, certificate: nil)
    }

    /// Whether the pin matches a certificate.
    /// - Parameter candidate: A certificate of the path.
    /// - Returns: true on a match as the pin's library compares.
    package func matches(_ candidate: CertificateFacts) -> Bool {
        switch kind {
        case .certificate: return certificate.map { Identity.sameCertificate($0, candidate) } ?? false
        case .publicKey: return certificate.map { Identity.sameKey($0, candidate) } ?? false
        case .spkiSHA256: return spkiSHA256 == candidate.spkiSHA256
        }
    }
}

/// Warnings that prevent outages (issue 9): no backup pin, a "backup" that is on the current path, no pin
/// on the path, a matching leaf that expires soon, a match only at a root the server did not send.
package enum OutageWarnings {
    /// Checks configured pins against the live path.
    /// - Parameters:
    ///   - pins: The configured pins of the policy that applies to the host.
    ///   - path: The path the device would build, leaf first.
    ///   - connection: The host, served chain, time and warning window.
    /// - Returns: Findings, in a stable order.
    /// The `pins.backup.on-chain` message: the same words from `pins check` and from the `pins extract` that
    /// recommended such a pair.
    package static func backupOnChainMessage(host: String, pins: Int) -> String {
        "\(host): all \(pins) pins match the current path, so none is a backup for a key or CA change"
    }

    package static func check(pins: [PinIdentity], path: [CertificateFacts], connection: PinConnection) -> [Finding] {
        var distinct: [PinIdentity] = []
        for pin in pins where !distinct.contains(where: { $0.label == pin.label }) { distinct.append(pin) }
        guard !distinct.isEmpty else { return [] }
        var out: [Finding] = []
        func add(_ rule: RuleID, _ message: String) {
            out.append(
                Finding(
                    rule: rule, severity: RuleRegistry.pins.descriptor(for: rule)?.severity ?? .warning,
                    message: message))
        }
        if distinct.count == 1 {
            add(
                RuleID.Pins.backupMissing,
                "\(connection.host): a single pin (\(distinct[0].label)) and no backup: a key or CA change breaks "
                    + "every connection until an app update"
            )
        }
        guard !path.isEmpty else { return out }
        let matching = distinct.filter { pin in path.contains(where: pin.matches) }
        if matching.isEmpty {
            add(
                RuleID.Pins.noneMatch,
                "\(connection.host): none of the \(distinct.count) pins matches a certificate of the path "
                    + "(\(path.map(Describe.certificate).joined(separator: " → ")))"
            )
            return out
        }
        if distinct.count >= 2, matching.count == distinct.count {
            add(RuleID.Pins.backupOnChain, backupOnChainMessage(host: connection.host, pins: distinct.count))
        }
        let positions = Set(path.indices.filter { i in distinct.contains { $0.matches(path[i]) } })
        if positions == [0] {
            let leaf = path[0]
            let limit = connection.now.addingTimeInterval(Double(connection.warnDays) * 86_400)
            if leaf.notAfter <= limit {
                let when = leaf.notAfter <= connection.now ? "expired on" : "expires on"
                let breaks =
                    matching.contains { $0.kind == .certificate }
                    ? "a certificate pin breaks when it is renewed"
                    : "a key pin breaks when it is renewed with a new key"
                add(
                    RuleID.Pins.leafExpiring,
                    "\(connection.host): the only matching pin is the leaf \(Describe.certificate(leaf)), which "
                        + "\(when) \(CalendarDay.string(from: leaf.notAfter)); \(breaks)"
                )
            }
        }
        if let last = positions.max(), positions == [last], last > 0, last == path.count - 1,
            !connection.served.contains(where: { Identity.sameCertificate($0, path[last]) })
        {
            add(
                RuleID.Pins.rootOnly,
                "\(connection.host): the only match is the root \(Describe.certificate(path[last])) from the trust "
                    + "store, which the server did not send; a device may build a path to another root"
            )
        }
        return out
    }
}
