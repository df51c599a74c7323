internal import COpenSSL
import CertificateTrust
internal import OpenSSLSupport
import TLSModel

/// The SCTs a handshake collected are ``CertificateTrust``'s: the name is kept here so that the handshake code, which
/// does not import that module, spells them as before.
typealias CollectedSCT = CertificateTrust.CollectedSCT

extension CertificateTrust.CollectedSCT {
    /// Every SCT OpenSSL collected on `ssl` (`SSL_get0_peer_scts`: the TLS extension, a stapled OCSP response and
    /// the leaf's embedded list). Works after ``ServerFlight`` stopped the handshake: OpenSSL parses the SCTs on
    /// first ask, from the extension, the staple and the peer chain it kept.
    static func peer(of ssl: OpaquePointer) -> [CollectedSCT] {
        OpenSSLErrorQueue.clear()
        guard let stack = SSL_get0_peer_scts(ssl) else {
            OpenSSLErrorQueue.clear()
            return []
        }
        // OpenSSL moves each source's SCTs onto its stack by popping them, so each source's run is reversed: put
        // them back in the order the server sent them.
        var runs: [[CollectedSCT]] = []
        for sct in collect(stack, source: nil) {
            if let last = runs.last?.last, last.source == sct.source {
                runs[runs.count - 1].append(sct)
            } else {
                runs.append([sct])
            }
        }
        return runs.flatMap { $0.reversed() }
    }
}
