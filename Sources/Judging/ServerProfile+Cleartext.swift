import Foundation
import TLSModel

extension ServerProfile {
    /// The profile of an `http://` endpoint: nothing is scanned, ATS judges the scheme.
    package static func cleartext(for target: Target, address: String? = nil, now: Date = Date()) -> ServerProfile {
        ServerProfile(
            target: target.hostPort, host: target.host, port: target.port, address: address, status: .completed,
            error: nil, handshakes: 0, scannedAt: now, scheme: "http")
    }
}
