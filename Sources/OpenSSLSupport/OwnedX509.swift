internal import COpenSSL
import Foundation

/// Owns one OpenSSL `X509` and frees it in `deinit`.
///
/// Not `Sendable`: callers that share a certificate across threads wrap it in a type of their own that
/// documents why that is safe.
package final class OwnedX509 {
    /// The certificate; valid as long as this object lives. Do not free it.
    package let pointer: OpaquePointer

    /// Takes ownership of `pointer`, whose reference the caller holds and must not free.
    package init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }

    /// Parses DER. Clears the error queue first; on failure returns nil and leaves OpenSSL's
    /// errors queued for the caller to drain into its own error.
    package convenience init?(der: some ContiguousBytes) {
        OpenSSLErrorQueue.clear()
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer<UInt8>?($0) } ?? nil
            return d2i_X509(nil, &cursor, raw.count)
        }
        guard let parsed else { return nil }
        self.init(takingOwnership: parsed)
    }

    /// Up-refs a certificate this code does not own (e.g. from a peer or built chain) and owns that reference.
    package convenience init?(retaining borrowed: OpaquePointer?) {
        guard let borrowed, X509_up_ref(borrowed) == 1 else { return nil }
        self.init(takingOwnership: borrowed)
    }

    /// The DER encoding; nil when OpenSSL cannot encode it (errors stay queued).
    package func der() -> [UInt8]? { Self.der(ofBorrowed: pointer) }

    /// The DER encoding of a certificate lent by OpenSSL (a `get0` pointer), without taking it.
    package static func der(ofBorrowed pointer: OpaquePointer) -> [UInt8]? {
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { return nil }
        var der = [UInt8](repeating: 0, count: Int(length))
        let written = der.withUnsafeMutableBufferPointer { buffer -> Int32 in
            var cursor: UnsafeMutablePointer<UInt8>? = buffer.baseAddress
            return i2d_X509(pointer, &cursor)
        }
        return written == length ? der : nil
    }

    /// The PEM encoding; nil when OpenSSL refuses (errors stay queued).
    package func pem() -> String? {
        guard let bio = MemoryBIO() else { return nil }
        OpenSSLErrorQueue.clear()
        guard PEM_write_bio_X509(bio.pointer, pointer) == 1 else { return nil }
        return bio.string
    }

    /// Every PEM certificate in `bytes`, in order. The "no start line" error that ends the read is
    /// expected and cleared; nil only when the buffer cannot be made.
    package static func certificates(fromPEM bytes: some ContiguousBytes) -> [OwnedX509]? {
        guard let bio = MemoryBIO(copying: bytes) else { return nil }
        var certificates: [OwnedX509] = []
        OpenSSLErrorQueue.clear()
        while let cert = PEM_read_bio_X509(bio.pointer, nil, nil, nil) {
            certificates.append(OwnedX509(takingOwnership: cert))
        }
        OpenSSLErrorQueue.clear()
        return certificates
    }
}
