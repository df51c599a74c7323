internal import COpenSSL
import Foundation

/// Owns one memory `BIO` and frees it in `deinit`, unless ownership passes to an `SSL`
/// (see ``OwnedSSL/attach(readBIO:writeBIO:)``).
package final class MemoryBIO {
    /// The BIO; valid as long as this object lives. Do not free it.
    package let pointer: OpaquePointer
    private var owned = true

    /// An empty, growable memory BIO; nil when OpenSSL cannot allocate one (errors stay queued).
    package init?() {
        OpenSSLErrorQueue.clear()
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        pointer = bio
    }

    /// A read-only memory BIO over a copy of `bytes` (so it outlives the caller's buffer).
    package init?(copying bytes: some ContiguousBytes) {
        OpenSSLErrorQueue.clear()
        guard let bio = BIO_new(BIO_s_mem()) else { return nil }
        pointer = bio  // owned from here on
        let written = bytes.withUnsafeBytes { raw -> Int32 in
            raw.isEmpty ? 0 : BIO_write(bio, raw.baseAddress, Int32(raw.count))
        }
        let expected = bytes.withUnsafeBytes { $0.count }
        guard Int(written) == expected else { return nil }
    }

    deinit { if owned { BIO_free(pointer) } }

    /// Called when OpenSSL has taken the BIO (`SSL_set_bio`): deinit must not free it again.
    func relinquish() { owned = false }

    /// Everything written so far and not yet read, as text.
    package var string: String {
        var data: UnsafeMutablePointer<CChar>?
        let length = atsc_BIO_get_mem_data(pointer, &data)
        guard let data, length > 0 else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: data, count: length), as: UTF8.self)
    }

    /// Bytes waiting to be read.
    package var pending: Int { Int(atsc_BIO_ctrl_pending(pointer)) }

    /// Appends `bytes` for the reader.
    package func write(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        _ = bytes.withUnsafeBytes { BIO_write(pointer, $0.baseAddress, Int32($0.count)) }
    }

    /// Takes every pending byte.
    package func readAll() -> [UInt8] {
        let count = pending
        guard count > 0 else { return [] }
        var buffer = [UInt8](repeating: 0, count: count)
        let n = buffer.withUnsafeMutableBytes { BIO_read(pointer, $0.baseAddress, Int32($0.count)) }
        return n > 0 ? Array(buffer[0..<Int(n)]) : []
    }
}
