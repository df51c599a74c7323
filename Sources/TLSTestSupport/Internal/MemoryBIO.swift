internal import COpenSSL
import Foundation

/// Owns one memory `BIO`, freed in `deinit`.
final class MemoryBIO {
    let pointer: OpaquePointer

    init() throws {
        guard let bio = BIO_new(BIO_s_mem()) else { throw TestSupportError.openSSL(.certificate, "BIO_new") }
        pointer = bio
    }

    deinit { BIO_free(pointer) }

    /// Everything written so far, as text.
    var string: String {
        var data: UnsafeMutablePointer<CChar>?
        let length = atsc_BIO_get_mem_data(pointer, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }
}
