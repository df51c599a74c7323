internal import COpenSSL
import Foundation
internal import OpenSSLSupport
import TLSModel

/// Checks the keys of a CT log list: each must be a public key OpenSSL can read (DER SubjectPublicKeyInfo, as RFC
/// 6962 §3.2 and Apple's log_list_schema_v5 `key` say), and each log ID must be the SHA-256 of its key (RFC 6962
/// §3.2; trustd looks logs up by that ID: `OTATrustUtilities.m`, `ConvertTrustedCTLogsArrayToDictionary`).
package enum CTLogKeys {
    /// One line per log whose key or ID is wrong, naming the log and its operator; empty when all are right.
    package static func problems(_ list: CTLogList) -> [String] {
        OpenSSLRuntime.prepare()
        defer { OpenSSLErrorQueue.clear() }
        return list.logs.compactMap { log in
            let name = "log '\(log.description)' of \(log.operator)"
            let bytes = [UInt8](log.key)
            let key: OpaquePointer? = bytes.withUnsafeBytes { raw in
                var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer<UInt8>?($0) } ?? nil
                return d2i_PUBKEY(nil, &cursor, raw.count)
            }
            guard let key else { return "\(name): its key is not a valid public key" }
            EVP_PKEY_free(key)
            let id = Data(Digest.sha256(bytes)).base64EncodedString()
            guard id == log.id else { return "\(name): its log_id is not the SHA-256 of its key" }
            return nil
        }
    }
}
