internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// Checks a CT log list's keys when it is loaded, so that a bad entry is refused with its name rather than making
/// every SCT from that log end "signature could not be verified" (`CTLogStore` skips keys OpenSSL cannot read).
public enum CTLogKeyCheck {
    /// The first problem with a log's key, or nil when every key is a public key OpenSSL reads and every `log_id` is
    /// the SHA-256 of its key (RFC 6962 §3.2, which is how an SCT names its log).
    public static func problem(in list: CTLogList) -> String? {
        for log in list.logs {
            let name = "log '\(log.description)' of \(log.operator)"
            let key = [UInt8](log.key)
            OpenSSLErrorQueue.clear()
            let parsed: OpaquePointer? = key.withUnsafeBufferPointer { buffer in
                var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
                return d2i_PUBKEY(nil, &cursor, buffer.count)
            }
            OpenSSLErrorQueue.clear()
            guard let parsed else { return "\(name): its key is not a valid public key (DER SubjectPublicKeyInfo)" }
            EVP_PKEY_free(parsed)
            let id = Data(Digest.sha256(key)).base64EncodedString()
            if id != log.id { return "\(name): its log_id \(log.id) is not the SHA-256 of its key (\(id))" }
        }
        return nil
    }
}
