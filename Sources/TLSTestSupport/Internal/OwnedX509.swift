internal import COpenSSL
import Foundation

/// Owns one `X509`, freed in `deinit`.
final class OwnedX509 {
    let pointer: OpaquePointer

    /// Takes ownership of `pointer` (the caller must not free it).
    init(takingOwnership pointer: OpaquePointer) { self.pointer = pointer }

    deinit { X509_free(pointer) }

    /// Parses DER.
    convenience init(der: Data) throws {
        OpenSSLErrors.clear()
        let parsed: OpaquePointer? = der.withUnsafeBytes { raw in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress.map { UnsafePointer<UInt8>?($0) } ?? nil
            return d2i_X509(nil, &cursor, raw.count)
        }
        guard let parsed else { throw TestSupportError.openSSL(.certificate, "d2i_X509") }
        self.init(takingOwnership: parsed)
    }

    /// The DER encoding.
    func der() throws -> Data {
        OpenSSLErrors.clear()
        let length = i2d_X509(pointer, nil)
        guard length > 0 else { throw TestSupportError.openSSL(.certificate, "i2d_X509") }
        var data = Data(count: Int(length))
        let written = data.withUnsafeMutableBytes { raw -> Int32 in
            var cursor = raw.bindMemory(to: UInt8.self).baseAddress
            return i2d_X509(pointer, &cursor)
        }
        guard written == length else { throw TestSupportError.openSSL(.certificate, "i2d_X509") }
        return data
    }

    /// The DER of a certificate this code does not own (e.g. from a peer chain), without taking it.
    static func derOfBorrowed(_ pointer: OpaquePointer?) throws -> Data {
        guard let pointer, X509_up_ref(pointer) == 1 else { throw TestSupportError(.certificate, "no certificate") }
        return try OwnedX509(takingOwnership: pointer).der()  // the up-ref is released by deinit
    }

    /// The PEM encoding.
    func pem() throws -> String {
        let bio = try MemoryBIO()
        OpenSSLErrors.clear()
        guard PEM_write_bio_X509(bio.pointer, pointer) == 1 else {
            throw TestSupportError.openSSL(.certificate, "PEM_write_bio_X509")
        }
        return bio.string
    }
}
